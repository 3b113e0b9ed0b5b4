/**
 * `ssebench dataset check-sources`: asks Debian's archive (HEAD) for every file the tasks of a
 * dataset pin in upstream/sources.yaml, so a version that has left the archive is found even when
 * no case image is built. One line per missing file; exit 1 if any is missing or a sources.yaml is
 * malformed (which is refused before any of its files is asked for).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "../run/messages.ts";
import { readPinnedSources } from "../run/layers/upstream-sources.ts";
import { cardsMessages as m } from "./messages.ts";

export type Fetch = (url: string, init: { method: "HEAD"; signal: AbortSignal }) => Promise<Response>;

/** Reports each problem as it is found (one line each); returns how many there were and the summary line for none. */
export async function checkSources(dir: string, report: (line: string) => void, fetchFile: Fetch = fetch): Promise<{ problems: number; summary: string }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(m.notADatasetFolder(dir));
  const tasks = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".") && existsSync(join(dir, e.name, "upstream", "sources.yaml")));
  let problems = 0;
  const problem = (line: string) => {
    problems++;
    report(line);
  };
  let files = 0;
  for (const task of tasks) {
    let pins: Awaited<ReturnType<typeof readPinnedSources>>;
    try {
      pins = await readPinnedSources(join(dir, task.name));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problem(e.message);
      continue;
    }
    if (!pins) continue;
    for (const file of pins.files) {
      files++;
      const r = await fetchFile(file.url, { method: "HEAD", signal: AbortSignal.timeout(30_000) }).catch((e: unknown) => e as Error);
      if (r instanceof Error) problem(msg.sourceDownloadFailed(pins.file, file.url, r.message));
      else if (r.status === 404 || r.status === 410) problem(msg.sourceGone(pins.file, pins.package, pins.version, file.url));
      else if (!r.ok) problem(msg.sourceDownloadFailed(pins.file, file.url, `HTTP ${r.status}`));
    }
  }
  return { problems, summary: m.sourcesPresent(dir, files, tasks.length) };
}
