import { defineCommand } from "citty";
import { jsonArg, labelArg } from "../args.ts";

export default defineCommand({
  meta: {
    name: "prune",
    description: "Remove ssebench's images that are not needed: superseded builds, tool layers of other ssebench versions, layers of agents or agent versions gone (docs/images.md)",
  },
  args: {
    "dry-run": { type: "boolean", description: "Only list what would be removed, and why" },
    ...labelArg,
    ...jsonArg,
  },
  async run({ args }) {
    const { pruneCommand } = await import("../../images/command.ts");
    return pruneCommand({ json: Boolean(args.json), label: args.label, dryRun: Boolean(args["dry-run"]) });
  },
});
