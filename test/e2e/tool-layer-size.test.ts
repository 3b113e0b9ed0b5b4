/**
 * The tool layer stores the entrypoint once (issue 16 item 5): built by the product's own code
 * (toolLayerSpec + ensureLayer) on the demo task's case image, under a tag of this test only, it
 * adds at most the entrypoint's size once (plus a little: users, /plugins, prepare's pristine copy
 * of a small source tree) over the case image, and no layer but its COPY holds the binary.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { findHome } from "../../src/run/home.ts";
import { ensureLayer } from "../../src/run/layers/layers.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { toolInputs, toolLayerSpec } from "../../src/run/layers/tool-layers.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, docker, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-tool-size-");
const tag = `ssebench-e2e/tool-size:${process.pid}`;
afterAll(() => {
  results.cleanup();
  if (E2E) docker(["rmi", "--force", tag]);
});

/** What the layers between two images add, in bytes, as `docker image inspect` counts them. */
const size = (ref: string) => Number(docker(["image", "inspect", "--format", "{{.Size}}", ref]));

describe.skipIf(!E2E)(`the tool layer's size on a real engine${SKIP_REASON}`, () => {
  test("it adds the entrypoint once over the case image", async () => {
    // A run makes sure the case image exists and names it.
    const r = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", "dummy", "--results", results.path]);
    expect(r.exitCode).toBe(0);
    const runDir = (r.stdout.split("\n").find((l) => l.startsWith("Run directory: ")) as string).slice("Run directory: ".length);
    const caseId = readJson<Summary>(join(runDir, "summary.json")).container.case_image as string;
    const home = findHome({ ...process.env, SSEBENCH_HOME: repoRoot });
    const { spec, cleanup } = toolLayerSpec(home, tag, caseId, [], toolInputs(home, caseId, []));
    try {
      await ensureLayer(new DockerCli(), spec, undefined, memoryReporter());
    } finally {
      cleanup();
    }
    const binary = statSync(home.entrypointBinary).size;
    const added = size(tag) - size(caseId);
    console.log(`tool layer adds ${(added / 1e6).toFixed(1)} MB over the case image; the entrypoint is ${(binary / 1e6).toFixed(1)} MB`);
    expect(added).toBeGreaterThanOrEqual(binary);
    expect(added).toBeLessThan(binary + 16 * 1024 * 1024);
    // The tool layer's own steps (newest first, above the case image's): only its COPY holds the binary.
    const history = (ref: string) => docker(["history", "--no-trunc", "--human=false", "--format", "{{.Size}}\t{{.CreatedBy}}", ref]).split("\n");
    const own = history(tag).slice(0, history(tag).length - history(caseId).length);
    const big = own.filter((l) => Number(l.split("\t")[0]) >= binary / 2);
    expect(big).toHaveLength(1);
    expect(big[0]).toContain("COPY file:");
    expect(big[0]).toContain("in /usr/local/bin/ssebench-entrypoint");
  });
});
