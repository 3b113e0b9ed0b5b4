import { defineCommand } from "citty";
import { jsonArg } from "../args.ts";

export default defineCommand({
  meta: {
    name: "verify",
    description: "Run every task with the reference agent (must pass) and the dummy agent (PoC must still trigger)",
  },
  args: {
    tasks: { type: "positional", required: false, description: "Task IDs (default: every task of the dataset)", valueHint: "TASK..." },
    dir: { type: "string", alias: "local", description: "Dataset folder (default: datasets/demo of this checkout)", valueHint: "DIR" },
    catalog: { type: "string", description: "A built-in dataset by name instead of --dir: demo or debian (its task folders in the ssebench home)", valueHint: "NAME" },
    output: { type: "string", alias: "o", description: "Where verdicts, logs and runs go (default: results/dataset-verify)", valueHint: "DIR" },
    timeout: { type: "string", description: "Agent and grading time limit of each run in seconds (default 1800)", valueHint: "SECONDS" },
    repeat: { type: "string", description: "Verify each task N times; every check must grade the same in each (exit 3 if not)", valueHint: "N" },
    record: { type: "boolean", description: "Write each passing task's verification record into the dataset's verified.json" },
    "record-from": {
      type: "string",
      description: "Record the passing tasks of a finished verify --output OUT that graded exactly the current files, without verifying",
      valueHint: "OUT",
    },
    ...jsonArg,
  },
  async run({ args }) {
    const { verifyCommand } = await import("../../run/verify/verify-command.ts");
    return verifyCommand({ ...args, recordFrom: args["record-from"], tasks: args._ as string[] });
  },
});
