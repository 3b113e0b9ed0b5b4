import { defineCommand } from "citty";
import { checkArg, datasetDirArg, outputFileArg } from "../args.ts";
import { emit } from "./emit.ts";

export default defineCommand({
  meta: { name: "manifest", description: "Write the dataset's manifest.json (or print it with -o -, or check it with --check)" },
  args: {
    ...datasetDirArg,
    ...outputFileArg,
    ...checkArg,
    "generated-from": { type: "string", description: "Record COMMIT as generated_from", valueHint: "COMMIT" },
  },
  async run({ args }) {
    const { runManifest } = await import("../../dataset/manifest-command.ts");
    return emit(
      await runManifest({ dir: args.dir, output: args.output, check: args.check, generatedFrom: args["generated-from"] }),
    );
  },
});
