import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "items",
    description: "Print the materialised items of an item dataset (kind: Dataset) as JSON Lines",
  },
  args: {
    file: { type: "positional", required: true, description: "Item dataset YAML file", valueHint: "FILE" },
    limit: { type: "string", description: "Print at most N items", valueHint: "N" },
    sourceOverride: {
      type: "string",
      description: "YAML mapping of spec.source fields merged over the dataset's source (as an experiment does)",
      valueHint: "FILE",
    },
  },
  async run({ args }) {
    const { runItems } = await import("../../items/commands.ts");
    return runItems(args.file, { limit: args.limit, sourceOverride: args.sourceOverride });
  },
});
