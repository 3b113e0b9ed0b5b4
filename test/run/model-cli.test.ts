/**
 * `ssebench run --model` through the compiled binary, with a home holding an agent that makes model
 * calls: an unknown model, a missing key variable, a wire mismatch are one line each before
 * anything is built; --model with an agent that makes no calls is a warning and files the run
 * under 'none'; a bad --budget is a usage error; --backend swarm takes a model only with uploads.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg as gatewayMsg } from "../../src/gateway/messages.ts";
import { msg } from "../../src/run/messages.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

setDefaultTimeout(60_000);
const home = tempDir("ssebench-model-home-");
const results = tempDir("ssebench-model-cli-");
afterAll(() => {
  home.cleanup();
  results.cleanup();
});
for (const name of ["images", "runtime", "models", "datasets"]) symlinkSync(join(repoRoot, name), join(home.path, name));
mkdirSync(join(home.path, "agents", "caller"), { recursive: true });
symlinkSync(join(repoRoot, "agents", "dummy"), join(home.path, "agents", "dummy"));
writeFileSync(join(home.path, "agents", "caller", "agent.yaml"), "name: caller\nwires: [anthropic]\n");
writeFileSync(join(home.path, "agents", "caller", "Dockerfile"), "ARG TOOL_IMAGE\nFROM ${TOOL_IMAGE}\n");
const local = ["--local", join(import.meta.dir, "fixtures", "dataset"), "--task", "tiny-task"];

async function run(args: string[], env: Record<string, string> = {}) {
  return ssebench(["run", "--results", results.path, ...local, ...args], { env: { SSEBENCH_HOME: home.path, ...env } });
}

describe("ssebench run --model", () => {
  test("an agent that makes model calls needs --model; an unknown one lists the models", async () => {
    expect((await run(["--agent", "caller"])).stderr).toBe(`${msg.modelRequired("caller")}\n`);
    const r = await run(["--agent", "caller", "--model", "nosuch"]);
    expect([r.exitCode, r.stderr]).toEqual([1, `${msg.unknownModel("nosuch", ["claude-sonnet-4-6", "gpt-5", "scripted"])}\n`]);
  });

  test("a missing key variable, then a wire mismatch: one line each, nothing created", async () => {
    const file = join(home.path, "models", "gpt-5.yaml");
    const noKey = await run(["--agent", "caller", "--model", "gpt-5"]);
    expect([noKey.exitCode, noKey.stderr]).toEqual([1, `${gatewayMsg.keyMissing(file, "gpt-5", "OPENAI_API_KEY")}\n`]);
    const mismatch = await run(["--agent", "caller", "--model", "gpt-5"], { OPENAI_API_KEY: "sk-x" });
    expect([mismatch.exitCode, mismatch.stderr]).toEqual([1, `${msg.wireMismatch("caller", ["anthropic"], "gpt-5", ["chat", "responses"])}\n`]);
    expect(readdirSync(results.path)).toEqual([]);
  });

  test("--backend swarm with a model and results copied (no relay to carry the calls): one line before anything is built", async () => {
    const r = await run(["--agent", "caller", "--model", "scripted", "--backend", "swarm"], { PATH: "/nonexistent", SSEBENCH_SWARM_RESULTS: "copy" });
    expect([r.exitCode, r.stderr]).toEqual([1, `${msg.swarmModelNeedsUpload()}\n`]);
    expect(readdirSync(results.path)).toEqual([]);
  });

  test("--backend swarm with a model and uploads (the default): validation passes on to the agent's files", async () => {
    const r = await run(["--agent", "caller", "--model", "scripted", "--backend", "swarm"], { PATH: "/nonexistent" });
    // The next check (after validation) refuses this home's caller agent: the model was not.
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringContaining(join("agents", "caller", "Dockerfile:2"))]);
    expect(readdirSync(results.path)).toEqual([]);
  });

  test("--model for an agent that makes no model calls: a warning, the model is not even loaded", async () => {
    const r = await run(["--agent", "dummy", "--model", "gpt-5"], { PATH: "/nonexistent" });
    expect(r.stderr).toContain(msg.modelIgnored("dummy", "gpt-5"));
    expect(r.stderr).toContain(msg.dockerMissing());
    expect(r.stderr).not.toContain("OPENAI_API_KEY");
  });

  test("--model with an llm: true plugin: served for the plugin even to an agent that makes no calls", async () => {
    const file = join(home.path, "models", "gpt-5.yaml");
    const r = await run(["--agent", "dummy", "--model", "gpt-5", "--plugin", "oracle"]);
    expect([r.exitCode, r.stderr]).toEqual([1, `${gatewayMsg.keyMissing(file, "gpt-5", "OPENAI_API_KEY")}\n`]);
  });

  test("--budget must be a positive number of dollars", async () => {
    for (const bad of ["0", "-1", "ten", "1e3"]) {
      const r = await run(["--agent", "caller", "--model", "scripted", "--budget", bad]);
      expect([r.exitCode, r.stderr]).toEqual([2, `${msg.budget(bad)}\n`]);
    }
  });
});
