/**
 * Per-task checks that need the Dockerfile (spec §1.2 steps 3–7): the base image, the COPY
 * sources, and that every path of the config ends up under /ssebench in the case image.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeCause } from "../errors.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";
import { CONFIG_FILE, IMAGE_ROOT, REGISTRY_ARG, REGISTRY_PREFIX } from "../formats/patterns.ts";
import { type Dockerfile, DockerfileError, type StatFn, isPinned, parseDockerfile, resolveImagePath } from "./dockerfile.ts";
import { taskMessages as m } from "./messages.ts";
import { posixNormpath } from "./python-text.ts";

interface TaskUnderCheck {
  dir: string;
  /** stat of paths in the task folder (a tree-backed one saves system calls) */
  stat: StatFn;
  errors: string[];
  config?: TaskMetadata;
}

function readDockerfile(task: TaskUnderCheck): Dockerfile | undefined {
  const path = join(task.dir, "Dockerfile");
  const info = task.stat(path);
  if (!info) return void task.errors.push(m.dockerfileMissing);
  try {
    if (!info.isFile()) return void task.errors.push(m.dockerfileProblem("not a regular file"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(path));
    return parseDockerfile(text);
  } catch (error) {
    if (error instanceof TypeError) return void task.errors.push(m.dockerfileProblem("not UTF-8 text"));
    task.errors.push(m.dockerfileProblem(error instanceof DockerfileError ? error.message : describeCause(error)));
    return undefined;
  }
}

function checkBase(task: TaskUnderCheck, dockerfile: Dockerfile): void {
  const base = dockerfile.final.image;
  if (!base.startsWith(REGISTRY_PREFIX)) task.errors.push(m.lastFromNotRegistry(base));
  else if (!dockerfile.globalArgs.has(REGISTRY_ARG)) task.errors.push(m.registryArgMissing);
  else if (!isPinned(base.slice(REGISTRY_PREFIX.length))) task.errors.push(m.baseNotPinned(base.slice(REGISTRY_PREFIX.length)));
}

/** The config's paths in the reference's order, with the names its messages use. */
function configPaths(config: TaskMetadata): [string, string][] {
  const { scripts, files, task_description } = config;
  const single: [string, string | null][] = [
    ["scripts.build", scripts.build],
    ["scripts.run", scripts.run],
    ["scripts.test", scripts.test],
    ["files.patch", files.patch],
    ["files.future_test", files.future_test],
    ["files.security_test", files.security_test],
    ["files.intent_test", files.intent_test],
  ];
  return [
    ...single.filter((entry): entry is [string, string] => Boolean(entry[1])),
    ...(files.poc ?? []).map((v, i): [string, string] => [`files.poc[${i}]`, v]),
    ...(task_description.crash_report ?? []).map((v, i): [string, string] => [`task_description.crash_report[${i}]`, v]),
  ];
}

/** A normalised COPY source above the task folder (`..` or `../…`; `..sse` is an ordinary name). */
function isOutside(source: string): boolean {
  return source === ".." || source.startsWith("../");
}

/** Adds the task's Dockerfile problems to `task.errors`; returns the parsed Dockerfile, if any. */
export function checkDockerfile(task: TaskUnderCheck): Dockerfile | undefined {
  const dockerfile = readDockerfile(task);
  if (!dockerfile) return undefined;
  checkBase(task, dockerfile);
  const { stat } = task;
  for (const { source } of dockerfile.final.copies) {
    if (isOutside(source)) task.errors.push(m.copiesOutside(source));
    else if (!stat(join(task.dir, source))) task.errors.push(m.copiesMissing(source));
  }
  const safe = { ...dockerfile, final: { ...dockerfile.final, copies: dockerfile.final.copies.filter((c) => !isOutside(c.source)) } };
  if (resolveImagePath(task.dir, safe, `${IMAGE_ROOT}/config.yaml`, stat) !== join(task.dir, CONFIG_FILE)) {
    task.errors.push(m.configNotCopied);
  }
  if (!task.config) return dockerfile;
  for (const [name, value] of configPaths(task.config)) {
    const imagePath = posixNormpath(`${IMAGE_ROOT}/${value}`);
    if (!imagePath.startsWith(`${IMAGE_ROOT}/`)) task.errors.push(m.pathOutside(name, value));
    else if (!resolveImagePath(task.dir, safe, imagePath, stat)) task.errors.push(m.pathNotCopied(name, imagePath));
  }
  return dockerfile;
}
