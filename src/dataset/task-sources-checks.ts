/**
 * `dataset validate` of a task's `upstream/sources.yaml` (pinned upstream inputs), offline: the
 * format's rules in the words `ssebench run` uses when it fetches them
 * (src/formats/upstream-sources/upstream-sources-check.ts), and what the task folder can contradict: a pinned file
 * the folder also holds (the fetched copy would replace it in the build context), and a Dockerfile
 * that copies nothing of upstream/ (the pins would never reach the build).
 */
import { join } from "node:path";
import { checkUpstreamSources } from "../formats/upstream-sources/upstream-sources-check.ts";
import type { Dockerfile } from "./dockerfile.ts";
import { taskMessages as m } from "./messages.ts";
import { readYamlFile } from "./yaml-file.ts";

export const SOURCES_PATH = "upstream/sources.yaml";

export interface TaskWithSources {
  dir: string;
  /** regular files of the folder, POSIX paths */
  files: readonly string[];
  errors: string[];
  dockerfile?: Dockerfile;
}

const copiesUpstream = (dockerfile: Dockerfile) =>
  dockerfile.stages.some((stage) => stage.copies.some(({ source }) => source === "." || source === "upstream" || source.startsWith("upstream/")));

/** Adds the problems of the task's sources.yaml, if it has one, to `task.errors`. */
export function checkTaskSources(task: TaskWithSources): void {
  if (!task.files.includes(SOURCES_PATH)) return;
  const read = readYamlFile(join(task.dir, SOURCES_PATH), { knownFile: true });
  if (!read.ok) return void task.errors.push(m.sourcesUnreadable(read.cause));
  const checked = checkUpstreamSources(read.data);
  if (!checked.ok) return void task.errors.push(...checked.problems.map(m.sourcesProblem));
  checked.value.files.forEach(({ name }, i) => {
    if (task.files.includes(`upstream/${name}`)) task.errors.push(m.sourcesShadowed(i, name));
  });
  if (task.dockerfile && !copiesUpstream(task.dockerfile)) task.errors.push(m.sourcesNotCopied);
}
