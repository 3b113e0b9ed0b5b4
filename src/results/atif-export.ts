/**
 * `ssebench results … --atif DIR`: one ATIF trajectory file per trial that has a dialog. The run
 * folder is read as untrusted (results/load.ts's reads: regular files, no link followed, nothing
 * outside the run folder, a size cap); each trajectory is checked against our ATIF model before it
 * is written, so a file in DIR is always valid ATIF.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DIALOG_FILE } from "../contract/agent.ts";
import { describeCause, UserError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { toAtif } from "./atif.ts";
import { jsonLines, readCapped, SUMMARY_MAX_BYTES, type TrialRow } from "./load.ts";
import { msg } from "./messages.ts";

/** The largest dialog exported (the viewer shows up to 32 MiB of one). */
export const DIALOG_MAX_BYTES = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

/** The run's dialog: the run folder's own copy, else the archive's; null without one. */
function readDialog(real: string, warn: (line: string) => void): Json[] | null {
  for (const rel of [DIALOG_FILE, `archive/${DIALOG_FILE}`]) {
    try {
      return jsonLines(readCapped(join(real, rel), DIALOG_MAX_BYTES, real));
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") continue;
      warn(msg.unreadable(join(real, rel), describeCause(cause)));
      return null;
    }
  }
  return null;
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_").slice(0, 80) || "_";

export interface AtifExport {
  written: number;
  withoutDialog: number;
}

export async function exportAtif(rows: readonly TrialRow[], dir: string, warn: (line: string) => void): Promise<AtifExport> {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (cause) {
    throw new UserError(msg.atifDir(dir, describeCause(cause)));
  }
  const { atifProblems } = await import("../formats/atif/atif.ts");
  const names = new Set<string>();
  let written = 0;
  let withoutDialog = 0;
  for (const row of rows) {
    let real: string | null = null;
    try {
      real = row.runDir === null ? null : realpathSync(row.runDir);
    } catch {
      real = null;
    }
    const dialog = real === null ? null : readDialog(real, warn);
    const summary = real === null || dialog === null ? null : readSummary(real, warn);
    const trajectory = summary && dialog ? toAtif({ summary, dialog, version: VERSION }) : null;
    if (!trajectory) {
      withoutDialog++;
      continue;
    }
    const problems = atifProblems(trajectory);
    if (problems.length > 0) {
      warn(msg.atifInvalid(row.runDir as string, problems[0] as string));
      continue;
    }
    const stem = [row.task, row.agent, row.model, basename(row.runDir as string)].map(safeName).join(".");
    let name = `${stem}.json`;
    for (let n = 2; names.has(name); n++) name = `${stem}.${n}.json`;
    names.add(name);
    try {
      writeFileSync(join(dir, name), `${JSON.stringify(trajectory, null, 2)}\n`);
    } catch (cause) {
      throw new UserError(msg.atifDir(dir, describeCause(cause)));
    }
    written++;
  }
  return { written, withoutDialog };
}

function readSummary(real: string, warn: (line: string) => void): Json | null {
  try {
    const s = JSON.parse(readCapped(join(real, "summary.json"), SUMMARY_MAX_BYTES, real));
    return s !== null && typeof s === "object" && !Array.isArray(s) ? (s as Json) : null;
  } catch (cause) {
    warn(msg.unreadable(join(real, "summary.json"), describeCause(cause)));
    return null;
  }
}
