/** `--tasks all|GLOB|@FILE` against the tasks of the run's source (the --local folder or the catalog). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeCause, usageError, UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export interface TaskSource {
  ids: string[];
  /** for messages: the folder, or `the catalog <location>` */
  where: string;
}

/** The task IDs of a --local dataset folder (folders with a task config), or of the catalog's manifest. */
export async function listTasks(local: string | undefined, catalog: string | undefined, env: NodeJS.ProcessEnv): Promise<TaskSource> {
  if (local) {
    const root = resolve(local);
    const ids = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && (existsSync(join(root, e.name, "sse", "config.yaml")) || existsSync(join(root, e.name, "config.yaml"))))
      .map((e) => e.name)
      .sort();
    return { ids, where: root };
  }
  const { openCatalog } = await import("../catalog/client.ts");
  const opened = await openCatalog({ catalog, env });
  return { ids: opened.manifest.tasks.map((t) => t.id), where: `the catalog ${opened.location}` };
}

const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The task IDs --tasks names, in the source's order (a file's in its own order). */
export function selectTasks(spec: string, source: TaskSource, cwd = process.cwd()): string[] {
  if (spec === "all") return [...source.ids];
  if (spec.startsWith("@")) return tasksFile(resolve(cwd, spec.slice(1)), source);
  if (!spec || /[/\s]/.test(spec)) throw usageError(msg.tasksSyntax(spec));
  const glob = new Bun.Glob(spec);
  const ids = source.ids.filter((id) => glob.match(id));
  if (ids.length === 0) throw new UserError(msg.noTasksMatch(spec, source.where));
  return ids;
}

/** One task ID a line; blank lines and `#` comments skipped; each ID must be a task of the source. */
function tasksFile(file: string, source: TaskSource): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new UserError(msg.tasksFileUnreadable(file, describeCause(cause)));
  }
  const ids: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const word = (raw.split("#")[0] ?? "").trim();
    if (!word) return;
    if (!TASK_ID.test(word)) throw new UserError(msg.tasksFileLine(file, index + 1, word));
    if (!source.ids.includes(word)) throw new UserError(msg.unknownTaskAt(file, index + 1, word, source.where));
    ids.push(word);
  });
  return ids;
}
