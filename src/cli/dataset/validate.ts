import { defineCommand } from "citty";
import { datasetDirArg } from "../args.ts";
import { emit } from "./emit.ts";

export default defineCommand({
  meta: {
    name: "validate",
    description: "Check every task folder of a dataset, or an item dataset FILE.yaml (kind: Dataset); exit 1 with one line per problem",
  },
  args: { ...datasetDirArg },
  async run({ args }) {
    const { statSync } = await import("node:fs");
    if (args.dir && statSync(args.dir, { throwIfNoEntry: false })?.isFile()) {
      // Only YAML files are item datasets; any other file is named as not a dataset.
      if (!/\.ya?ml$/i.test(args.dir)) {
        const { runValidate } = await import("../../dataset/validate-command.ts");
        return emit(runValidate(args.dir));
      }
      const items = await import("../../items/commands.ts");
      return items.runValidate(args.dir);
    }
    const { runValidate } = await import("../../dataset/validate-command.ts");
    return emit(runValidate(args.dir));
  },
});
