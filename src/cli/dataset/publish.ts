import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "publish",
    description: "Push verified case images to a registry, write publication records and pin them in images.lock.json",
  },
  args: {
    tasks: { type: "positional", required: false, description: "Task IDs (default: every task with a verification result)", valueHint: "TASK..." },
    registry: { type: "string", required: true, description: "Registry to push to, e.g. 127.0.0.1:5000 or ghcr.io/org/ssebench", valueHint: "PREFIX" },
    dir: { type: "string", description: "Dataset folder (default: datasets/demo of this checkout)", valueHint: "DIR" },
    output: { type: "string", alias: "o", description: "Where `dataset verify` wrote its verdicts; records go to OUTPUT/published (default: results/dataset-verify)", valueHint: "DIR" },
    revision: { type: "string", description: "The commit the dataset is at (default: git rev-parse HEAD of DIR)", valueHint: "COMMIT" },
    unverified: { type: "boolean", description: "Build each case image from its folder and publish it without a verification result" },
  },
  async run({ args }) {
    const { publishCommand } = await import("../../registry/publish-command.ts");
    return publishCommand({ ...args, tasks: args._ as string[] });
  },
});
