import { defineCommand } from "citty";
import { jsonArg } from "../args.ts";

export default defineCommand({
  meta: {
    name: "records",
    description: "Show a dataset's verification records (verified.json) and whether each is current; --check fails on a missing or stale one",
  },
  args: {
    dir: { type: "positional", required: true, description: "Dataset folder", valueHint: "DIR" },
    check: { type: "boolean", description: "Print nothing but problems; exit 1 if a task's record is missing or stale, or a record has no task" },
    sample: { type: "string", description: "Print one task id chosen from SEED (CI: the commit hash), the same for the same seed and tasks", valueHint: "SEED" },
    within: { type: "string", description: "With --sample: choose among the tasks whose record says one verify took at most SECONDS", valueHint: "SECONDS" },
    prune: { type: "boolean", description: "Drop the records of tasks the dataset no longer has" },
    ...jsonArg,
  },
  async run({ args }) {
    const { findHome } = await import("../../run/home.ts");
    const { recordsCommand } = await import("../../run/verify/records-command.ts");
    return recordsCommand(args, findHome());
  },
});
