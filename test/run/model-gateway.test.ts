/** The run's gateway folder: socket + root-only key, removed on close; a socket path it cannot serve is one line. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadModelFile } from "../../src/gateway/models.ts";
import { openRunGateway } from "../../src/run/model-gateway.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";

const runDir = tempDir("ssebench-run-gw-");
afterAll(() => runDir.cleanup());
const model = await loadModelFile(join(repoRoot, "models", "scripted.yaml"), {});

describe("the run's gateway", () => {
  test("a 0700 folder with the socket and a 0600 key file; gone after close", async () => {
    const gw = await openRunGateway(model, { runId: "r1", runDir: runDir.path }, 10, { debug: () => {}, warn: () => {} });
    expect(statSync(gw.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(gw.dir, "api-key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(gw.dir, "api-key"), "utf8")).toMatch(/^sk-ssebench-\S+\n$/);
    expect(statSync(join(gw.dir, "model.sock")).isSocket()).toBe(true);
    expect((await gw.close()).calls).toBe(0);
    expect(existsSync(gw.dir)).toBe(false);
  });

  test("a temp folder it cannot use: one line saying what to do", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(runDir.path, "missing");
    try {
      await expect(openRunGateway(model, { runId: "r2", runDir: runDir.path }, 10, { debug: () => {}, warn: () => {} })).rejects.toThrow(/^Cannot serve the model gateway in .*missing\/ssebench-gw-… \(ENOENT: .*\); set TMPDIR to a short, writable folder$/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});
