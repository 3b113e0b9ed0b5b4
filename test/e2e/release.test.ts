/**
 * The release archive as a user gets it: dist/release/ssebench-<version>-linux-x64.tar.gz (built
 * here by scripts/build/release.ts when absent; .ci/run builds it first) unpacked into an empty folder,
 * checked against its SHA256SUMS, and `ssebench run` of a demo task with the reference agent run
 * from another empty folder with a fresh cache and no Bun or checkout on the way: the agents,
 * tool layer, plugins and demo task come from inside the binary.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { VERSION } from "../../src/version.ts";
import { repoRoot, runBinary, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_200_000);
const name = `ssebench-${VERSION}-linux-x64`;
const archive = join(repoRoot, "dist", "release", `${name}.tar.gz`);
const unpacked = tempDir("ssebench-e2e-release-");
const elsewhere = tempDir("ssebench-e2e-release-cwd-");
afterAll(() => {
  unpacked.cleanup();
  elsewhere.cleanup();
});
const sh = (cmd: string[], cwd: string) => Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });

describe.skipIf(!E2E || process.arch !== "x64")(`the linux-x64 release archive outside a checkout${SKIP_REASON}`, () => {
  test("unpacked into an empty folder, its ssebench runs a demo task with the reference agent: Grade: passed", async () => {
    if (!existsSync(archive)) expect(sh([process.execPath, join(repoRoot, "scripts", "build", "release.ts"), "--target", "linux-x64"], repoRoot).exitCode).toBe(0);
    expect(sh(["tar", "-xzf", archive], unpacked.path).exitCode).toBe(0);
    const folder = join(unpacked.path, name);
    expect(readdirSync(folder).sort()).toEqual(["INSTALL.md", "SHA256SUMS", "ssebench", "ssebench-entrypoint"]);
    const sums = sh(["sha256sum", "-c", "SHA256SUMS"], folder);
    expect(sums.stdout.toString()).toBe("ssebench: OK\nssebench-entrypoint: OK\n");

    const home = join(elsewhere.path, "home");
    const results = join(elsewhere.path, "results");
    // No node_modules/.bin (no Bun), a HOME and cache of its own, the working directory outside the checkout.
    const env = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: home, DOCKER_HOST: process.env.DOCKER_HOST };
    const r = await runBinary(join(folder, "ssebench"), ["run", "--task", DEMO_TASK, "--agent", "reference", "--results", results, "--run-id", "release-1"], { cwd: elsewhere.path, env });
    expect(r.stderr).not.toContain(repoRoot);
    expect(r.stdout.split("\n")[1]).toBe("Grade: passed");
    expect(r.exitCode).toBe(0);
    const summary = readJson<Summary>(join(results, DEMO_TASK, "none", "reference", "release-1", "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    // The home it ran from is the one its binary carried, written into the fresh cache.
    const homes = readdirSync(join(home, ".cache", "ssebench", "home"));
    expect(homes).toHaveLength(1);
    expect(existsSync(join(home, ".cache", "ssebench", "home", homes[0] as string, "agents", "reference", "agent.yaml"))).toBe(true);
  });
});
