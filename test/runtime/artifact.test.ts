/** The shipped artifact plugin (runtime/plugins/artifact) and `ssebench-entrypoint artifact`. */
import { afterAll, afterEach, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entrypointBin, repoRoot, runBinary, tempDir } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, newRun, type RunDirs, runEntrypoint, shAgent } from "./harness.ts";

let dirs: RunDirs | undefined;
// Each run is several real processes and git calls; a busy 2-vCPU machine needs headroom.
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

test("the shipped plugins.yaml validates, and the artifact plugin lists every result file with its producer", async () => {
  dirs = newRun({ env: { SSE_PLUGINS: "artifact" } });
  cpSync(join(repoRoot, "runtime/plugins"), dirs.plugins, { recursive: true });
  // The agent also plants a symlink where root will write the manifest.
  const r = await runEntrypoint(dirs, shAgent(`echo "{}" > "$SSE_ARCHIVE/dialog.jsonl"; ln -s ${dirs.base}/out "$SSE_ARCHIVE/artifact"`));
  expect(r.exitCode).toBe(0);
  expect(r.pluginResults).toEqual([expect.objectContaining({ name: "artifact", hook: "after-grading", status: "ok", exit_code: 0 })]);
  const text = readFileSync(join(dirs.archive, "artifact/manifest.json"), "utf8");
  const m = JSON.parse(text);
  expect(text).toStartWith('{\n  "generated_at": "');
  expect(Object.keys(m)).toEqual(["generated_at", "results", "file_count", "total_bytes", "files"]);
  expect(m.generated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
  expect(m.results).toBe(dirs.results);
  const producers = Object.fromEntries(m.files.map((f: { path: string; producer: string }) => [f.path, f.producer]));
  expect(producers).toMatchObject({
    "archive/dialog.jsonl": "agent",
    "agent.log": "entrypoint",
    "final.patch": "daemon",
    "result.json": "evaluator",
    "grading/build.log": "entrypoint",
  });
  expect(Object.keys(producers).some((p) => p.startsWith("archive/plugins") || p.startsWith("archive/artifact"))).toBe(false);
  expect(m.file_count).toBe(m.files.length);
  expect(existsSync(join(dirs.base, "out/manifest.json"))).toBe(false);
  const result = m.files.find((f: { path: string }) => f.path === "result.json");
  expect(result.sha256).toBe(createHash("sha256").update(readFileSync(join(dirs.results, "result.json"))).digest("hex"));
});

test("artifact without a results folder writes a skip reason and exits 0", async () => {
  const t = tempDir();
  try {
    const skip = join(t.path, "skip");
    const r = await runBinary(entrypointBin, ["artifact"], { env: { SSE_RESULTS: join(t.path, "none"), SSE_ARCHIVE: t.path, SSE_PLUGIN_SKIP_FILE: skip } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`[artifact] SSE_RESULTS ${join(t.path, "none")} is not a directory; skipping\n`);
    expect(readFileSync(skip, "utf8")).toBe(`SSE_RESULTS ${join(t.path, "none")} is not a directory\n`);
  } finally {
    t.cleanup();
  }
});

test("artifact: a symlink the agent left at archive/artifact hides nothing, and a file over 4 GiB is hashed in chunks", async () => {
  const t = tempDir();
  try {
    const results = join(t.path, "res");
    const archive = join(results, "archive");
    mkdirSync(archive, { recursive: true });
    writeFileSync(join(results, "result.json"), "{}\n");
    symlinkSync("..", join(archive, "artifact")); // points at the results folder itself
    // Sparse: one byte past what a single Buffer can hold (reading it whole failed with ENOMEM).
    Bun.spawnSync(["truncate", "-s", String(2 ** 32 + 1), join(archive, "big.bin")]);
    const r = await runBinary(entrypointBin, ["artifact"], { env: { SSE_RESULTS: results, SSE_ARCHIVE: archive } });
    expect(r.exitCode).toBe(0);
    const m = JSON.parse(readFileSync(join(archive, "artifact/manifest.json"), "utf8"));
    expect(m.files.map((f: { path: string }) => f.path)).toEqual(["archive/big.bin", "result.json"]);
    // sha256 of 2^32+1 zero bytes (`head -c 4294967297 /dev/zero | sha256sum`)
    expect(m.files[0]).toMatchObject({ size_bytes: 2 ** 32 + 1, sha256: "fbb82f7b353676bb562eb82157fcf0ea42c36492ca13ee56dbf82c08b6802c5c" });
    expect(lstatSync(join(archive, "artifact")).isDirectory()).toBe(true);
  } finally {
    t.cleanup();
  }
});
