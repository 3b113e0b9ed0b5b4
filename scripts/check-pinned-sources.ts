/**
 * Asks Debian's archive (HEAD) for every file the tasks of a dataset pin in upstream/sources.yaml,
 * so a version that has left the archive is found even when no case image is built. One line per
 * missing file, exit 1 if any is missing or a sources.yaml is malformed.
 *
 *   bun scripts/check-pinned-sources.ts DIR
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../src/errors.ts";
import { msg } from "../src/run/messages.ts";
import { readPinnedSources } from "../src/run/layers/upstream-sources.ts";

const dir = resolve(process.argv[2] ?? "datasets/debian");
if (!existsSync(dir) || !statSync(dir).isDirectory()) {
  console.error(`check-pinned-sources: ${dir}: not a dataset folder`);
  process.exit(1);
}
const tasks = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".") && existsSync(join(dir, e.name, "upstream", "sources.yaml")));
let problems = 0;
let files = 0;
for (const task of tasks) {
  try {
    const pins = await readPinnedSources(join(dir, task.name));
    for (const file of pins?.files ?? []) {
      files++;
      const r = await fetch(file.url, { method: "HEAD", signal: AbortSignal.timeout(30_000) }).catch((e: unknown) => e as Error);
      if (r instanceof Error) {
        console.error(msg.sourceDownloadFailed(pins!.file, file.url, r.message));
        problems++;
      } else if (r.status === 404 || r.status === 410) {
        console.error(msg.sourceGone(pins!.file, pins!.package, pins!.version, file.url));
        problems++;
      } else if (!r.ok) {
        console.error(msg.sourceDownloadFailed(pins!.file, file.url, `HTTP ${r.status}`));
        problems++;
      }
    }
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    console.error(e.message);
    problems++;
  }
}
if (problems > 0) process.exit(1);
console.log(`${dir}: the archive has all ${files} pinned files of ${tasks.length} tasks`);
