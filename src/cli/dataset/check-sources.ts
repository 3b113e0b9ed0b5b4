import { defineCommand } from "citty";
import { out } from "../output.ts";

export default defineCommand({
  meta: {
    name: "check-sources",
    description: "Ask Debian's archive for every file the tasks pin in upstream/sources.yaml; exit 1 if one is gone",
  },
  args: {
    dir: { type: "positional", required: true, description: "Dataset folder", valueHint: "DIR" },
  },
  async run({ args }) {
    const { resolve } = await import("node:path");
    const { checkSources } = await import("../../dataset/check-sources.ts");
    const { problems, summary } = await checkSources(resolve(args.dir), (line) => process.stderr.write(`${line}\n`));
    if (problems > 0) return 1;
    out(summary);
  },
});
