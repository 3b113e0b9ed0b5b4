import { defineCommand } from "citty";
import { checkArg } from "../args.ts";
import { emit } from "./emit.ts";

export default defineCommand({
  meta: { name: "schema", description: "Export the JSON Schemas of the task config, dataset.yaml, manifest and images lock" },
  args: {
    output: { type: "string", alias: "o", description: "Folder to write to (default: datasets/schema of this checkout)", valueHint: "DIR" },
    ...checkArg,
    "ignore-descriptions": {
      type: "boolean",
      description: "With --check: compare constraints only (titles, descriptions, layout aside), e.g. the reference's own schemas",
    },
  },
  async run({ args }) {
    const { runSchema } = await import("../../dataset/schema-command.ts");
    return emit(await runSchema({ output: args.output, check: args.check, ignoreDescriptions: args["ignore-descriptions"] }));
  },
});
