/** `ssebench dataset validate` (spec §1.4). */
import { datasetDir } from "./locate.ts";
import type { CommandOutput } from "./manifest-command.ts";
import { reportMessages as m } from "./messages.ts";
import { invalidReport, isValidDataset, loadDataset } from "./validate.ts";

export function runValidate(dir?: string): CommandOutput {
  const d = loadDataset(datasetDir(dir));
  if (isValidDataset(d)) return { stdout: `${m.valid(d.dir, d.tasks.length)}\n`, stderr: "", exitCode: 0 };
  return { stdout: "", stderr: `${invalidReport(d)}\n`, exitCode: 1 };
}
