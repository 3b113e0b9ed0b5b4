/**
 * Results pushed home from a real container: the demo task's agent layer, run as `ssebench run`
 * runs it but with no results mount at all, uploads its results over the receiver's Unix socket
 * (mounted like the gateway's, so the container keeps `--network none`); the folder the receiver
 * writes has the files a local run of the same task leaves, with the same grade and patch.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ENTRYPOINT } from "../../src/contract/paths.ts";
import { bindMount, CAPABILITIES } from "../../src/run/backends/container.ts";
import { startResultsReceiver } from "../../src/run/backends/upload/receiver.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { fileTree } from "../helpers/file-tree.ts";
import { DEMO_TASK, demoDir, docker, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("push-e2e-upload-");
afterAll(() => results.cleanup());

/** The container's side of the run folder: what the host adds (summary, reference copy) left out. */
function containerFiles(dir: string): Record<string, string> {
  const files = fileTree(dir);
  for (const host of ["summary.json", "reference.patch"]) delete files[host];
  return files;
}

describe.skipIf(!E2E)(`results pushed home from a real container${SKIP_REASON}`, () => {
  test("the reference agent's results arrive over the mounted socket and match a local run's folder", async () => {
    const local = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", "reference", "--results", results.path, "--run-id", "push-local", "--timeout", "600"]);
    expect(local.exitCode).toBe(0);
    const localDir = join(results.path, DEMO_TASK, "none", "reference", "push-local");
    const summary = readJson<Summary>(join(localDir, "summary.json"));

    // Short, under /tmp: a Unix socket path is limited to 107 bytes.
    const sockDir = mkdtempSync(join(tmpdir(), "push-up-"));
    chmodSync(sockDir, 0o700);
    const receiver = startResultsReceiver({ listen: { unix: join(sockDir, "upload.sock") }, containerSocket: "/run/ssebench-upload/upload.sock" });
    const pushedDir = join(results.path, "pushed");
    mkdirSync(join(pushedDir, "archive"), { recursive: true });
    writeFileSync(join(pushedDir, "result.json"), "");
    const up = receiver.expect("push-e2e", pushedDir);
    writeFileSync(join(sockDir, "upload.json"), up.secretText, { mode: 0o600 });
    const name = `push-e2e-${process.pid}`;
    try {
      const caps = CAPABILITIES.flatMap((c) => ["--cap-add", c]);
      // Not spawnSync: the receiver answers on this process's event loop.
      const run = Bun.spawn(
        [
          "docker", "run", "--rm", "--name", name, "--init", "--network", "none", "--security-opt", "no-new-privileges", "--cap-drop", "ALL", ...caps,
          "--user", "0:0", "--entrypoint", ENTRYPOINT, "--workdir", "/",
          "-e", "SSE_ARCHIVE=/tmp/sse-archive", "-e", "TIMEOUT=600", "-e", "SSE_UPLOAD_FILE=/run/ssebench-upload/upload.json",
          "--mount", bindMount(sockDir, "/run/ssebench-upload", true),
          "--mount", bindMount(join(localDir, "reference.patch"), "/reference/patch.diff", true),
          summary.container.image as string, "--mode", "sandbox", "--", "ssebench:apply-reference",
        ],
        { stdout: "pipe", stderr: "pipe" },
      );
      const [stdout, stderr, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
      const out = `${stdout}${stderr}`;
      expect(code).toBe(0);
      expect(out).toContain('msg="Results uploaded"');
      const outcome = await up.outcome;
      expect(outcome).toMatchObject({ ok: true, skipped: [] });

      const want = containerFiles(localDir);
      const got = fileTree(pushedDir);
      expect(Object.keys(got)).toEqual(Object.keys(want));
      // The grade, without the checks' durations (two runs never take the same time).
      const result = (dir: string) => JSON.parse(readFileSync(join(dir, "result.json"), "utf8"), (k, v) => (k === "duration_seconds" ? 0 : v));
      expect(result(pushedDir).patch_result).toEqual(result(localDir).patch_result);
      expect(got["final.patch"]).toBe(want["final.patch"] as string);
      expect(got["final.patch"]).toContain("diff --git");
    } finally {
      docker(["rm", "--force", name]);
      await receiver.close();
      rmSync(sockDir, { recursive: true, force: true });
    }
  });
});
