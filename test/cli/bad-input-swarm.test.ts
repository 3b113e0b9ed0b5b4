/**
 * `ssebench run --backend swarm` (one trial) with no Swarm to reach: one line, exit 1, before any
 * image is built and before a run folder exists, as a job says it before its first trial.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/run/messages.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-bad-swarm-");
afterAll(() => scratch.cleanup());
const results = join(scratch.path, "results");
const run = (env: Record<string, string>) => ssebench(["run", "--task", "htmlesc-quote-overflow", "--agent", "dummy", "--backend", "swarm", "--results", results], { env });

describe("run --backend swarm without a Swarm", () => {
  test("a manager engine that does not answer is named before anything is built", async () => {
    const host = `unix://${join(scratch.path, "no-engine.sock")}`;
    const r = await run({ SSEBENCH_SWARM_HOST: host });
    const [line, ...more] = r.stderr.trim().split("\n");
    expect(more).toEqual([]);
    // The wording is the docker CLI's: one says it cannot connect, an older one fails its --format
    // template (not a manager, then); CI's first pass has no docker CLI at all.
    const prefixes = [msg.engineDown(host, ""), msg.swarmNoManager(host, "")].map((m) => m.split(" (")[0] as string);
    if (Bun.which("docker")) expect(prefixes.some((p) => line?.startsWith(p))).toBe(true);
    else expect(line).toBe(msg.dockerMissing());
    expect(r.exitCode).toBe(1);
    expect(existsSync(results)).toBe(false);
  });

  test("a malformed SSEBENCH_SWARM_NODES is its own line", async () => {
    const r = await run({ SSEBENCH_SWARM_NODES: "no-equals-sign" });
    expect([r.exitCode, r.stderr.trim()]).toEqual([1, msg.swarmNodes("no-equals-sign")]);
    expect(existsSync(results)).toBe(false);
  });
});
