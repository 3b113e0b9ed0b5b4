import { defineCommand } from "citty";
import { jsonArg, labelArg } from "../args.ts";
import { loadCommand as load } from "../lazy-command.ts";

export default defineCommand({
  meta: {
    name: "images",
    description: "List the images ssebench made on this engine (case images, tool layers, agent layers), with sizes and what each belongs to",
  },
  args: { ...labelArg, ...jsonArg },
  subCommands: {
    prune: () => load(import("./prune.ts")),
  },
  async run({ args }) {
    const { imagesCommand } = await import("../../images/command.ts");
    return imagesCommand({ json: Boolean(args.json), label: args.label });
  },
});
