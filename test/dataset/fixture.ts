/**
 * Builds small datasets on disk for the dataset tests: a valid task by default, with any file
 * replaced or removed per test.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const GOOD_DOCKERFILE = `ARG SSEBENCH_REGISTRY=registry.test
FROM \${SSEBENCH_REGISTRY}/base-generic-c:1.0.0
COPY src /src
COPY sse/ /ssebench/
`;

export function goodConfig(id: string): string {
  return `id: ${id}
project: demo
repository: https://example.org/demo.git
language: c
source: /src
task_description:
  issue: "It crashes on long input."
scripts:
  build: build.sh
  run: run.sh
  test: test.sh
files:
  patch: diffs/patch.diff
  future_test: diffs/test.diff
  poc:
    - pocs/poc.bin
`;
}

/** path → content (null removes the file) */
export type TaskFiles = Record<string, string | Uint8Array | null>;

export function goodTaskFiles(id: string): TaskFiles {
  return {
    Dockerfile: GOOD_DOCKERFILE,
    "src/main.c": "int main(void) { return 0; }\n",
    "sse/config.yaml": goodConfig(id),
    "sse/build.sh": "#!/bin/sh\nmake\n",
    "sse/run.sh": "#!/bin/sh\n./main \"$1\"\n",
    "sse/test.sh": "#!/bin/sh\nmake test\n",
    "sse/diffs/patch.diff": "--- a\n+++ b\n",
    "sse/diffs/test.diff": "--- a\n+++ b\n",
    "sse/pocs/poc.bin": "",
  };
}

export function writeFiles(root: string, files: TaskFiles): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    if (content === null) {
      rmSync(full, { force: true, recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Writes a task folder `<dataset>/<id>` from the good task plus overrides. */
export function writeTask(dataset: string, id: string, overrides: TaskFiles = {}): string {
  const dir = join(dataset, id);
  writeFiles(dir, { ...goodTaskFiles(id), ...overrides });
  return dir;
}

/** A dataset folder with dataset.yaml and the given valid tasks. */
export function writeDataset(root: string, ids: string[], version = "demo-v1"): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "dataset.yaml"), `version: ${version}\n`);
  for (const id of ids) writeTask(root, id);
  return root;
}
