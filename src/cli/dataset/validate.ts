import { defineCommand } from "citty";
import { datasetDirArg } from "../args.ts";
import { emit } from "./emit.ts";

export default defineCommand({
  meta: { name: "validate", description: "Check every task folder of a dataset (exit 1 with one line per problem)" },
  args: { ...datasetDirArg },
  async run({ args }) {
    const { runValidate } = await import("../../dataset/validate-command.ts");
    return emit(runValidate(args.dir));
  },
});
