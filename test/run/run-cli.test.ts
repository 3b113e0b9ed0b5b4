/**
 * `ssebench run` bad input, through the compiled binary: each case is one clear line on stderr and
 * its exit code, nothing started, no run folder left behind. None of these reach a Docker engine.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/run/messages.ts";
import { hasNoStackTrace, repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

setDefaultTimeout(60_000);
const fixtures = join(import.meta.dir, "fixtures", "dataset");
// The agents the home ships: every folder of agents/ with an agent.yaml, sorted (the list grows).
const shippedAgents = readdirSync(join(repoRoot, "agents"))
  .filter((name) => existsSync(join(repoRoot, "agents", name, "agent.yaml")))
  .sort();
const results = tempDir("ssebench-run-cli-");
afterAll(results.cleanup);

async function fails(args: string[], expected: string, exitCode = 1, env: Record<string, string | undefined> = {}) {
  const r = await ssebench(["run", "--results", results.path, ...args], { env });
  expect(r.stderr).toBe(`${expected}\n`);
  expect(r.exitCode).toBe(exitCode);
  expect(r.stdout).toBe("");
  expect(hasNoStackTrace(r.stderr)).toBe(true);
  expect(readdirSync(results.path)).toEqual([]);
}

const local = ["--local", fixtures, "--task", "tiny-task"];

describe("ssebench run: command line (exit 2)", () => {
  test("--task and --agent are required", async () => {
    await fails(["--agent", "dummy"], msg.missingFlag("--task"), 2);
    await fails(["--task", "tiny-task"], msg.missingFlag("--agent"), 2);
  });

  test("run IDs: syntax and 'latest'", async () => {
    await fails([...local, "--agent", "dummy", "--run-id=-bad"], msg.runIdSyntax("-bad"), 2);
    await fails([...local, "--agent", "dummy", "--run-id", "LATEST"], msg.runIdLatest(), 2);
  });

  test("choices and numbers", async () => {
    await fails([...local, "--agent", "dummy", "--difficulty", "7"], msg.difficulty("7"), 2);
    await fails([...local, "--agent", "dummy", "--mode", "cloud"], msg.choice("--mode", "cloud", ["sandbox", "sidecar"]), 2);
    await fails([...local, "--agent", "dummy", "--egress", "wide"], msg.choice("--egress", "wide", ["restricted", "open"]), 2);
    await fails([...local, "--agent", "dummy", "--timeout", "0"], msg.positiveInt("--timeout", "0"), 2);
    // A delay past a timer's 2^31-1 ms fired at once and stopped the run before it began.
    await fails([...local, "--agent", "dummy", "--timeout", "99999999999"], msg.tooManySeconds("--timeout", "99999999999", 1_000_000), 2);
    await fails([...local, "--agent", "dummy", "--run-timeout", "2147484"], msg.tooManySeconds("--run-timeout", "2147484", 2_000_000), 2);
    await fails([...local, "--agent", "dummy", "--memory", "lots"], msg.memory("lots"), 2);
    await fails([...local, "--agent", "dummy", "--cpus=-1"], msg.cpus("-1"), 2);
  });

  test("a stray word is a usage error, not silently ignored", async () => {
    // `--plugin --run-id x1` made the binary run with a generated run ID and no plugin.
    await fails([...local, "--agent", "dummy", "--plugin", "--run-id", "x1"], msg.unexpectedArgument("x1"), 2);
    await fails([...local, "--agent", "dummy", "--require-pass", "yes"], msg.unexpectedArgument("yes"), 2);
  });

  test("an unknown flag is a usage error", async () => {
    const r = await ssebench(["run", ...local, "--agent", "dummy", "--frobnicate"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("ssebench run: unknown option '--frobnicate'");
  });
});

describe("ssebench run: validation in the reference's order (exit 1)", () => {
  test("an unknown or misspelt agent says so first (not that it needs --model)", async () => {
    expect(shippedAgents).toEqual(expect.arrayContaining(["claude-code", "codex", "dummy", "opencode", "patch", "python-agent", "reference"]));
    await fails([...local, "--agent", "nosuch"], msg.unknownAgent("nosuch", shippedAgents));
    await fails([...local, "--agent", "refrence"], `Unknown agent 'refrence'. Did you mean 'reference'? Available agents: ${shippedAgents.join(", ")}`);
  });

  test("egress: a bad setting, and open egress is refused", async () => {
    await fails([...local, "--agent", "dummy"], msg.egressSetting("wide"), 1, { SSEBENCH_EGRESS: "wide" });
    await fails([...local, "--agent", "dummy", "--egress", "open"], msg.egressOpen());
    await fails([...local, "--agent", "dummy"], msg.egressOpen(), 1, { SSEBENCH_EGRESS: "open" });
  });

  test("sidecar: --plugin is refused first; a run's mode is its agent's; a sidecar runs on the local backend only", async () => {
    await fails([...local, "--agent", "dummy", "--mode", "sidecar", "--plugin", "artifact"], msg.pluginSidecar());
    await fails([...local, "--agent", "dummy", "--mode", "sidecar"], msg.modeMismatch("sidecar", "dummy", "sandbox"));
    const sidecar = [...local, "--agent", "python-agent", "--model", "scripted"];
    await fails([...sidecar, "--plugin", "artifact"], msg.pluginSidecar());
    await fails([...sidecar, "--mode", "sandbox"], msg.modeMismatch("sandbox", "python-agent", "sidecar"));
    await fails([...sidecar, "--backend", "swarm"], msg.sidecarSwarm("python-agent"));
  });

  test("unknown plugins are named", async () => {
    await fails([...local, "--agent", "dummy", "--plugin", "artifact", "--plugin", "nosuch,other"], msg.unknownPlugins(["nosuch", "other"]));
  });

  test("unknown task: in a local dataset and in the catalog", async () => {
    await fails(["--local", fixtures, "--task", "nosuch", "--agent", "dummy"], `Benchmark task nosuch does not exist in ${fixtures}. Its tasks: ls ${fixtures}`);
    await fails(["--local", fixtures, "--task", "tiny-tsak", "--agent", "dummy"], `Benchmark task tiny-tsak does not exist in ${fixtures}. Did you mean 'tiny-task'? Its tasks: ls ${fixtures}`);
    await fails(["--task", "nosuch", "--agent", "dummy"], "Task nosuch is not in the catalog at the built-in demo dataset (ssebench tasks list lists its tasks)");
  });

  test("a task without a reference patch cannot run the reference agent", async () => {
    await fails(["--local", fixtures, "--task", "no-patch-task", "--agent", "reference"], msg.noReferencePatch("no-patch-task"));
  });

  test("an unknown agent lists what exists (models: model-cli.test.ts)", async () => {
    await fails([...local, "--agent", "nosuch", "--model", "gpt-5"], msg.unknownAgent("nosuch", shippedAgents));
  });

  test("no docker CLI on PATH: one line, and no run folder", async () => {
    await fails([...local, "--agent", "dummy"], msg.dockerMissing(), 1, { PATH: "/nonexistent" });
  });

  const noCli = Bun.which("docker") ? "" : " [skipped: no docker CLI on PATH]";
  test.skipIf(Boolean(noCli))(`the engine is down: one line naming its address${noCli}`, async () => {
    const socket = "unix:///nonexistent/docker.sock";
    const r = await ssebench(["run", "--results", results.path, ...local, "--agent", "dummy"], { env: { DOCKER_HOST: socket } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toStartWith(`Cannot reach the Docker engine at ${socket} (`);
    expect(r.stderr).toEndWith("start it (setup/docker-engine.sh start) or set DOCKER_HOST\n");
    expect(readdirSync(results.path)).toEqual([]);
  });
});

test("the home it runs from has the agents and the tool layer", () => {
  expect(existsSync(join(repoRoot, "agents", "dummy", "agent.yaml"))).toBe(true);
  expect(existsSync(join(repoRoot, "images", "sandbox", "Dockerfile"))).toBe(true);
});

describe("ssebench dataset verify: bad input", () => {
  test("an unknown task is named, exit 1", async () => {
    const r = await ssebench(["dataset", "verify", "nosuch", "tiny-task", "other", "--dir", fixtures, "--output", join(results.path, "..", "unused-verify-output")]);
    expect(r.stderr).toBe(`${msg.verifyUnknownTasks(fixtures, ["nosuch", "other"])}\n`);
    expect(r.exitCode).toBe(1);
  });

  test("an output folder that cannot be created, or a --dir that is a file: one line, exit 1", async () => {
    const scratch = tempDir("ssebench-verify-output-");
    const file = join(scratch.path, "a-file");
    writeFileSync(file, "");
    const r = await ssebench(["dataset", "verify", "--dir", fixtures, "tiny-task", "--output", file]);
    expect(r.stderr).toStartWith(`${file}: cannot create the output folder: ENOTDIR`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.exitCode).toBe(1);
    const notDir = await ssebench(["dataset", "verify", "--dir", file]);
    expect(notDir.stderr).toBe(`${file}: not a folder; --dir takes a dataset folder\n`);
    expect(notDir.exitCode).toBe(1);
    scratch.cleanup();
  });

  test("a bad --timeout is a usage error", async () => {
    const r = await ssebench(["dataset", "verify", "--dir", fixtures, "--timeout", "soon"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("--timeout must be a positive whole number (got 'soon')\n");
    const huge = await ssebench(["dataset", "verify", "--dir", fixtures, "--timeout", "3000000"]);
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toBe(`${msg.tooManySeconds("--timeout", "3000000", 1_000_000)}\n`);
  });

  test("--catalog names a built-in dataset's folder in the home; a bad name or both --dir and --catalog are usage errors", async () => {
    const named = await ssebench(["dataset", "verify", "--catalog", "debian", "no-such-task"]);
    expect([named.exitCode, named.stderr]).toEqual([1, `no such task in ${repoRoot}/datasets/debian: no-such-task\n`]);
    const bad = await ssebench(["dataset", "verify", "--catalog", "nope"]);
    expect([bad.exitCode, bad.stderr]).toEqual([2, `${msg.verifyCatalogName("nope", ["demo", "debian"])}\n`]);
    const both = await ssebench(["dataset", "verify", "--local", fixtures, "--catalog", "debian"]);
    expect([both.exitCode, both.stderr]).toEqual([2, `${msg.verifyDirAndCatalog()}\n`]);
  });

  test("a bad --repeat is a usage error", async () => {
    for (const [value, line] of [
      ["0", msg.positiveInt("--repeat", "0")],
      ["twice", msg.positiveInt("--repeat", "twice")],
      ["101", msg.verifyRepeatTooMany("101", 100)],
    ] as const) {
      const r = await ssebench(["dataset", "verify", "--dir", fixtures, "--repeat", value]);
      expect(r.stderr).toBe(`${line}\n`);
      expect(r.exitCode).toBe(2);
    }
  });
});
