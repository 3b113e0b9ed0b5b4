/**
 * Catalog tasks (spec dataset-catalog §4.4) with a fake docker: a task with no local copy is
 * pulled by tag, or by digest when the images lock pins it (then tagged); `--build` needs a copy.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesDigest } from "../../src/dataset/files-digest.ts";
import type { Manifest } from "../../src/formats/manifest/manifest-types.ts";
import type { Home } from "../../src/run/home.ts";
import { parseRunOptions } from "../../src/run/options.ts";
import { runTask } from "../../src/run/orchestrate.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";
import { FakeDocker, passedResult } from "./fake-docker.ts";
import { Argv } from "../../src/argv.ts";

const noFlags = Argv.read([], new Set());

const scratch = tempDir("ssebench-catalog-task-");
process.env.XDG_CACHE_HOME = join(scratch.path, "cache");
afterAll(scratch.cleanup);
const TASK = "htmlesc-quote-overflow";
const REF = `ghcr.io/42-b3yond-6ug/ssebench/case/demo/${TASK}`;

// A home without datasets/, and a catalog folder without task folders: nothing to build from.
const entrypoint = join(scratch.path, "ssebench-entrypoint");
writeFileSync(entrypoint, "#!/bin/sh\n");
const home: Home = {
  root: scratch.path,
  agentsDir: join(repoRoot, "agents"),
  sandboxDockerfile: join(repoRoot, "images", "sandbox", "Dockerfile"),
  pluginsDir: join(repoRoot, "runtime", "plugins"),
  entrypointBinary: entrypoint,
};
const catalog = join(scratch.path, "catalog");
mkdirSync(catalog);
copyFileSync(join(repoRoot, "datasets", "demo", "manifest.json"), join(catalog, "manifest.json"));
const manifest = JSON.parse(readFileSync(join(catalog, "manifest.json"), "utf8")) as Manifest;

async function run(docker: FakeDocker, runId: string, build = false) {
  const opts = parseRunOptions({ task: TASK, agent: "dummy", catalog, results: join(scratch.path, "results"), runId, build }, noFlags, {});
  return runTask(opts, { docker, reporter: memoryReporter(), home, env: {}, handleSignals: false });
}

describe("catalog tasks", () => {
  test("no local copy and no lock: pulled by the version tag", async () => {
    const docker = new FakeDocker();
    docker.container = { result: passedResult };
    await run(docker, "tag-1");
    expect(docker.calls.find((c) => c[0] === "pull")).toEqual(["pull", `${REF}:${manifest.version}`]);
  });

  test("pinned by the images lock: pulled by digest, then tagged", async () => {
    const task = manifest.tasks.find((t) => t.id === TASK);
    const digest = `sha256:${"a".repeat(64)}`;
    const lock = { dataset: manifest.dataset, version: manifest.version, images: { [TASK]: { digest, files_sha256: filesDigest(task?.files ?? {}), revision: "b".repeat(40) } } };
    writeFileSync(join(catalog, "images.lock.json"), JSON.stringify(lock));
    const docker = new FakeDocker();
    docker.container = { result: passedResult };
    await run(docker, "digest-1");
    expect(docker.calls.find((c) => c[0] === "pull")).toEqual(["pull", `${REF}@${digest}`]);
    expect(docker.calls.find((c) => c[0] === "tag")).toEqual(["tag", `${REF}@${digest}`, `${REF}:${manifest.version}`]);
  });

  test("--build without a local copy is refused up front", async () => {
    await expect(run(new FakeDocker(), "build-1", true)).rejects.toThrow(`Cannot build the case image of task ${TASK}: there is no local copy of it.`);
  });
});
