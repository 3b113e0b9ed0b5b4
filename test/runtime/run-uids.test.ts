/**
 * Per-run uids (docs/container-contract.md §4): SSE_MODEL_UID/SSE_RUNNER_UID renumber the users
 * before anything runs, the agent, its tree and the grading scripts use the new kernel uids. The
 * users file is a private copy (SSE_ETC), so the host's /etc/passwd is never rewritten here.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dropUsers, ensureUsers, liveProcessesOf, newRun, type RunDirs, renumberedUids, runEntrypoint, shAgent, testUids, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

function privateEtc(d: RunDirs): string {
  const etc = join(d.base, "etc");
  mkdirSync(etc);
  for (const f of ["passwd", "group"]) copyFileSync(`/etc/${f}`, join(etc, f));
  return etc;
}

describe("per-run uids", () => {
  test("the test users come from the test range, not useradd's 1000/999", () => {
    expect(uidOf(users.model)).toBe(testUids.model);
    expect(uidOf(users.runner)).toBe(testUids.runner);
    expect(testUids.model).toBeGreaterThanOrEqual(1_500_000_000);
  });

  test("SSE_MODEL_UID/SSE_RUNNER_UID renumber both users; agent, tree and scripts run as the new uids", async () => {
    dirs = newRun();
    const etc = privateEtc(dirs);
    Object.assign(dirs.env, { SSE_ETC: etc, SSE_MODEL_UID: String(renumberedUids.model), SSE_RUNNER_UID: String(renumberedUids.runner) });
    const build = join(dirs.taskRoot, "scripts/build.sh");
    writeFileSync(build, readFileSync(build, "utf8").replace("\n", "\nid -u\n"));
    const r = await runEntrypoint(dirs, shAgent('id -u > "$SSE_ARCHIVE/id"; id -g >> "$SSE_ARCHIVE/id"; stat -c %u "$SSE_SOURCE" >> "$SSE_ARCHIVE/id"'));
    expect(r.result.patch_result.build_success).toBe(true);
    const seen = readFileSync(join(dirs.archive, "id"), "utf8").trim().split("\n").map(Number);
    expect(seen).toEqual([renumberedUids.model, renumberedUids.model, renumberedUids.model]);
    // (the log's first line marks it as agent output)
    expect(readFileSync(join(dirs.results, "grading/build.log"), "utf8").split("\n")[1]).toBe(String(renumberedUids.runner));
    const passwd = readFileSync(join(etc, "passwd"), "utf8");
    expect(passwd).toContain(`${users.model}:x:${renumberedUids.model}:${renumberedUids.model}:`);
    expect(passwd).toContain(`${users.runner}:x:${renumberedUids.runner}:${renumberedUids.runner}:`);
    expect(readFileSync(join(etc, "group"), "utf8")).toContain(`${users.model}:x:${renumberedUids.model}:`);
    // The host's users file is untouched; the model's home followed the new uid.
    expect(uidOf(users.model)).toBe(testUids.model);
    expect(statSync(`/home/${users.model}`).uid).toBe(renumberedUids.model);
    expect(liveProcessesOf(renumberedUids.model)).toEqual([]);
    expect(liveProcessesOf(renumberedUids.runner)).toEqual([]);
  });

  test("a uid another entry holds, the same uid twice or a low uid is refused before anything runs", async () => {
    dirs = newRun();
    const etc = privateEtc(dirs);
    dirs.env.SSE_ETC = etc;
    dirs.env.SSE_MODEL_UID = "0";
    let r = await runEntrypoint(dirs, shAgent("touch $SSE_ARCHIVE/ran"));
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe('ssebench-entrypoint: SSE_MODEL_UID="0" is not a uid from 1000 to 2147483646');
    dirs.env.SSE_MODEL_UID = dirs.env.SSE_RUNNER_UID = String(renumberedUids.model);
    r = await runEntrypoint(dirs, shAgent("touch $SSE_ARCHIVE/ran"));
    expect(r.stderr.trim()).toBe(`ssebench-entrypoint: SSE_MODEL_UID and SSE_RUNNER_UID are both ${renumberedUids.model}; each user needs its own`);
    const taken = renumberedUids.runner + 2;
    writeFileSync(join(etc, "passwd"), `${readFileSync(join(etc, "passwd"), "utf8")}someone:x:${taken}:${taken}::/nonexistent:/bin/false\n`);
    dirs.env.SSE_RUNNER_UID = String(taken);
    r = await runEntrypoint(dirs, shAgent("touch $SSE_ARCHIVE/ran"));
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe(`ssebench-entrypoint: cannot give ${users.runner} uid ${taken}: user "someone" already has that number`);
    expect(() => statSync(join(dirs!.archive, "ran"))).toThrow();
  });
});
