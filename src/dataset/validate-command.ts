/** `ssebench dataset validate` (spec §1.4). */
import { statSync } from "node:fs";
import { datasetDir } from "./locate.ts";
import type { CommandOutput } from "./manifest-command.ts";
import { reportMessages as m } from "./messages.ts";
import { invalidReport, isValidDataset, loadDataset } from "./validate.ts";

export function runValidate(dir?: string): CommandOutput {
  const where = datasetDir(dir);
  const kind = pathKind(where);
  if (kind === "missing") return { stdout: "", stderr: `${m.dirMissing(where)}\n`, exitCode: 1 };
  if (kind === "other") return { stdout: "", stderr: `${m.notADatasetFolder(where)}\n`, exitCode: 1 };
  const d = loadDataset(where);
  if (isValidDataset(d)) return { stdout: `${m.valid(d.dir, d.tasks.length)}\n`, stderr: "", exitCode: 0 };
  return { stdout: "", stderr: `${invalidReport(d)}\n`, exitCode: 1 };
}

/** What is at a path (links followed): a folder, nothing, or something else (a file). */
function pathKind(path: string): "dir" | "missing" | "other" {
  try {
    return statSync(path).isDirectory() ? "dir" : "other";
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "other";
  }
}
