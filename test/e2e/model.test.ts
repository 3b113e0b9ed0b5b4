/**
 * A run with a model on a real engine: a bash test agent (test/e2e/fixtures/model-agent) calls the
 * scripted model through SSE_BASE_URL (127.0.0.1:4000 in a container with no network, forwarded
 * to the run's gateway socket); the ledger, transcript and summary.json record its calls and
 * spend; the key is in no `docker inspect` output; a spent budget answers 400; an unreachable
 * provider is said at once and makes the run an upstream error.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, docker, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-model-");
const home = homeWithAgents({});
symlinkSync(join(import.meta.dir, "fixtures", "model-agent"), join(home.path, "agents", "model-agent"));
// The checkout's models and one whose provider cannot be reached (nothing listens on port 1).
unlinkSync(join(home.path, "models"));
mkdirSync(join(home.path, "models"));
for (const f of readdirSync(join(repoRoot, "models"))) symlinkSync(join(repoRoot, "models", f), join(home.path, "models", f));
writeFileSync(
  join(home.path, "models", "unreachable.yaml"),
  "name: unreachable\nprovider: other\nupstream_model: u\nbase_url: http://127.0.0.1:1/v1\nkey_env: UNREACHABLE_KEY\nwires: [chat]\nprice: {input: 3, output: 15}\n",
);
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path, UNREACHABLE_KEY: "k" };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600", "--agent", "model-agent", "--model", "scripted"];
const ledger = (runDir: string): LedgerEntry[] =>
  readFileSync(join(runDir, "model-calls.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as LedgerEntry);
// models/scripted.yaml: 100 input and 20 output tokens per call at $3 and $15 per Mtok.
const CALL_COST = (100 * 3 + 20 * 15) / 1e6;

describe.skipIf(!E2E)(`ssebench run with a model on a real engine${SKIP_REASON}`, () => {
  test("the agent's calls reach the scripted model; ledger, transcript and summary agree; the key is in no docker inspect", async () => {
    const r = await ssebench([...base, "--run-id", "model-1", "--keep-container"], { env });
    expect(r.stdout).toContain("Grade: failed");
    expect(r.exitCode).toBe(0);
    const runDir = join(results.path, DEMO_TASK, "scripted", "model-agent", "model-1");
    const calls = ledger(runDir);
    expect(calls.map((c) => [c.wire, c.stream, c.status, c.path])).toEqual([
      ["chat", false, 200, "/v1/chat/completions"],
      ["chat", true, 200, "/chat/completions"],
    ]);
    expect(calls.map((c) => c.usage)).toEqual([1, 2].map(() => ({ input: 100, output: 20, cache_read: 0, cache_write: 0 })));
    expect(existsSync(join(runDir, "model-calls", "2.response.gz"))).toBe(true);
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.spend).toBeCloseTo(2 * CALL_COST, 10);
    expect(summary.spend).toBe(calls[1]?.spent as number);
    expect(summary.model_calls).toBe(2);
    expect(summary.tokens).toEqual({ input: 200, output: 40, cache_read: 0, cache_write: 0 });
    expect(summary.config.model).toBe("scripted");
    expect(summary.patch_result.status).toBe("failed");
    const first = readFileSync(join(runDir, "archive", "call-1.txt"), "utf8");
    expect(first).toStartWith("HTTP/1.1 200");
    expect(first).toContain('"tool_calls"');
    expect(readFileSync(join(runDir, "archive", "call-2.txt"), "utf8")).toContain("data: [DONE]");
    expect(readFileSync(join(runDir, "archive", "key-in-env.txt"), "utf8").trim()).toBe("1");
    expect(readFileSync(join(runDir, "archive", "key-file.txt"), "utf8")).toContain("denied");

    const id = docker(["ps", "-a", "-q", "--filter", "label=ssebench.run-id=model-1"]);
    expect(id).not.toBe("");
    const inspect = docker(["container", "inspect", id]);
    docker(["rm", "--force", id]);
    expect(inspect).not.toContain("sk-ssebench-");
    expect(JSON.parse(inspect)[0].HostConfig.NetworkMode).toBe("none");
    // No run network was made for it.
    expect(docker(["network", "ls", "-q", "--filter", "label=ssebench.run-id=model-1"])).toBe("");
  });

  test("--model for an agent that makes no model calls: a warning, the run filed under 'none', no gateway", async () => {
    const r = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--agent", "dummy", "--model", "scripted", "--run-id", "ignored-1"], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain("The dummy agent makes no model calls; ignoring --model scripted (the run is filed under model 'none')");
    const runDir = join(results.path, DEMO_TASK, "none", "dummy", "ignored-1");
    expect(existsSync(join(runDir, "model-calls.jsonl"))).toBe(false);
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect([summary.config.model, summary.spend, summary.model_calls]).toEqual(["none", 0, 0]);
  });

  test("a budget that holds no call's worst case answers every call with 400; nothing is spent, the grade stands", async () => {
    const r = await ssebench([...base, "--run-id", "budget-1", "--budget", "0.0001"], { env });
    expect(r.exitCode).toBe(0);
    const runDir = join(results.path, DEMO_TASK, "scripted", "model-agent", "budget-1");
    expect(ledger(runDir).map((c) => c.status)).toEqual([400, 400]);
    for (const n of [1, 2]) {
      const answer = readFileSync(join(runDir, "archive", `call-${n}.txt`), "utf8");
      expect(answer).toStartWith("HTTP/1.1 400");
      expect(answer).toContain('"code":"budget_exceeded"');
    }
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.spend).toBe(0);
    expect(summary.patch_result.status).toBe("failed");
    expect(r.stderr).toContain("The run's model budget of $0.0001 ran out: the gateway refused 2 calls");
  });

  test("an unreachable provider: its first failure is said at once in one line; the run is error/upstream (a job retries it)", async () => {
    const r = await ssebench([...base.slice(0, -1), "unreachable", "--run-id", "upstream-1"], { env });
    expect(r.exitCode).toBe(0);
    const runDir = join(results.path, DEMO_TASK, "unreachable", "model-agent", "upstream-1");
    expect(ledger(runDir).map((c) => [c.status, c.cost])).toEqual([[502, 0], [502, 0]]);
    const said = r.stderr.split("\n").filter((l) => l.includes("the upstream of model unreachable failed a call"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("ECONNREFUSED");
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result).toMatchObject({ status: "error", error_type: "upstream" });
    expect(summary.patch_result.error_msg).toStartWith("The model's provider failed the agent's calls (first: ");
    expect(r.stdout).toContain("Grade: error (The model's provider failed the agent's calls");
  });
});
