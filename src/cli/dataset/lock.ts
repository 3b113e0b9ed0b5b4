import { defineCommand } from "citty";
import { datasetDirArg } from "../args.ts";
import { emit } from "./emit.ts";

export default defineCommand({
  meta: { name: "lock", description: "Pin published case images by digest in images.lock.json (or check it with --check)" },
  args: {
    ...datasetDirArg,
    records: { type: "string", description: "Folder of publication records (*.json) to merge", valueHint: "DIR" },
    output: { type: "string", alias: "o", description: "Write to FILE instead of DIR/images.lock.json", valueHint: "FILE" },
    check: { type: "boolean", description: "Write nothing; exit 1 if the lock is missing, invalid, for another version, or pins unknown tasks" },
  },
  async run({ args }) {
    const { runLock } = await import("../../dataset/lock-command.ts");
    return emit(await runLock({ dir: args.dir, records: args.records, output: args.output, check: args.check }));
  },
});
