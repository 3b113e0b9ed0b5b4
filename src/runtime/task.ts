/** The parts of `<task root>/config.yaml` the runtime needs, read without the dataset model (no arktype). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";
import type { TaskBrief } from "../contract/agent.ts";
import { cachedParse, type YamlModule } from "../contract/parse-cache.ts";

export interface TaskConfig {
  id: string;
  project: string;
  language: string;
  source: string;
  description: { issue: string | null; bugDescription: string | null; crashReports: string[] };
  scripts: { build: string | null; run: string | null; test: string | null };
  files: { patch: string | null; futureTest: string | null; securityTest: string | null; intentTest: string | null; poc: string[] };
}

type Obj = Record<string, unknown>;

export async function readTaskConfig(taskRoot: string, cacheDir: string): Promise<TaskConfig> {
  const path = join(taskRoot, "config.yaml");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new UserError(msg.taskConfig(path, e instanceof Error ? e.message : String(e)));
  }
  return cachedParse(cacheDir, "config", text, "", (yaml) => parseTaskConfig(path, text, yaml));
}

function parseTaskConfig(path: string, text: string, yaml: YamlModule): TaskConfig {
  const fail = (problem: string) => new UserError(msg.taskConfig(path, problem));
  let doc: unknown;
  try {
    doc = yaml.parse(text);
  } catch (e) {
    throw fail(e instanceof Error ? e.message.split("\n")[0]! : String(e));
  }
  if (!isObj(doc)) throw fail("not a mapping");
  const str = (o: Obj, key: string, where: string): string | null => {
    const v = o[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw fail(`${where}${key} must be a string`);
    const t = v.trim();
    if (t.startsWith("/") && where !== "") throw fail(`${where}${key} must be relative to the task root`);
    return t === "" ? null : t;
  };
  const list = (o: Obj, key: string, where: string): string[] => {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw fail(`${where}${key} must be a list of paths`);
    return v.map((x: string) => x.trim());
  };
  const source = str(doc, "source", "");
  if (!source || !source.startsWith("/")) throw fail("source must be an absolute path");
  const scripts = isObj(doc.scripts) ? doc.scripts : {};
  const files = isObj(doc.files) ? doc.files : {};
  const td = isObj(doc.task_description) ? doc.task_description : {};
  return {
    id: String(doc.id ?? ""),
    project: String(doc.project ?? ""),
    language: String(doc.language ?? ""),
    source,
    description: {
      issue: typeof td.issue === "string" ? td.issue : null,
      bugDescription: typeof td.bug_description === "string" ? td.bug_description : null,
      crashReports: list(td, "crash_report", "task_description."),
    },
    scripts: { build: str(scripts, "build", "scripts."), run: str(scripts, "run", "scripts."), test: str(scripts, "test", "scripts.") },
    files: {
      patch: str(files, "patch", "files."),
      futureTest: str(files, "future_test", "files."),
      securityTest: str(files, "security_test", "files."),
      intentTest: str(files, "intent_test", "files."),
      poc: list(files, "poc", "files."),
    },
  };
}

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A task file's text, or "" when it is missing (the dataset validator reports that). */
function taskText(taskRoot: string, path: string): string {
  try {
    return readFileSync(join(taskRoot, path), "utf8");
  } catch {
    return "";
  }
}

/**
 * The agent's view of the task (SSE_TASK_FILE): description, crash reports and the build and test
 * scripts (shown in the prompt as the reference shows them), no answers.
 */
export function agentTaskBrief(task: TaskConfig, taskRoot: string): string {
  const crash_reports = task.description.crashReports.map((p) => ({ path: p, text: taskText(taskRoot, p) }));
  const script = (p: string | null) => (p === null ? null : taskText(taskRoot, p) || null);
  const { id, project, language, source } = task;
  const brief: TaskBrief = {
    id,
    project,
    language,
    source,
    issue: task.description.issue,
    bug_description: task.description.bugDescription,
    crash_reports,
    build_script: script(task.scripts.build),
    test_script: script(task.scripts.test),
  };
  return `${JSON.stringify(brief, null, 2)}\n`;
}
