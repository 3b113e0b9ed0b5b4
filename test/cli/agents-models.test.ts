/** `ssebench agents` and `ssebench models` as a user runs them: the compiled binary, real files. */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg as gatewayMsg } from "../../src/gateway/messages.ts";
import { hasNoStackTrace, repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-agents-models-");
afterAll(() => tmp.cleanup());
/** No user folder unless a test gives one. */
const noUser = { SSEBENCH_MODELS: join(tmp.path, "none") };
const BUILT_IN = ["claude-sonnet-4-6", "gpt-5", "scripted"];

/** A user's models folder: an OpenAI-compatible server (vLLM), a name the built-in models have, and a broken file. */
const mine = join(tmp.path, "my-models");
mkdirSync(mine);
const VLLM = `name: local-qwen
provider: other
upstream_model: Qwen/Qwen3-Coder-30B-A3B-Instruct
base_url: http://127.0.0.1:8000/v1
key_env: VLLM_API_KEY
wires: [chat]
price: {input: 0, output: 0}
`;
writeFileSync(join(mine, "local-qwen.yaml"), VLLM);
writeFileSync(join(mine, "scripted.yaml"), "name: scripted\nprovider: scripted\nwires: [chat]\nprice: {input: 0, output: 0}\nscript: none.yaml\n");
writeFileSync(join(mine, "broken.yaml"), "name: broken\nprovider: other\nwires: [chat]\nprice: {input: 0, output: 0}\n");

describe("ssebench agents", () => {
  test("every agent of agents/, with its version, wires, use of a model and mode; --json the same", async () => {
    const names = readdirSync(join(repoRoot, "agents")).sort();
    const json = await ssebench(["agents", "--json"], { cwd: "/" });
    expect([json.exitCode, json.stderr]).toEqual([0, ""]);
    const listed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(listed.map((a) => a.name)).toEqual(names);
    expect(listed.find((a) => a.name === "claude-code")).toEqual({ name: "claude-code", version: "2.1.332", wires: ["anthropic"], uses_model: true, mode: "sandbox", source: "built-in" });
    expect(listed.find((a) => a.name === "dummy")).toEqual({ name: "dummy", version: "1.0.0", wires: [], uses_model: false, mode: "sandbox", source: "built-in" });
    const table = await ssebench(["agents"], { cwd: "/" });
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME +VERSION +WIRES +USES MODEL +MODE +FROM$/);
    expect(lines.find((l) => l.startsWith("claude-code "))?.split(/ {2,}/)).toEqual(["claude-code", "2.1.332", "anthropic", "yes", "sandbox", "built-in"]);
    expect(lines.find((l) => l.startsWith("dummy "))?.split(/ {2,}/)).toEqual(["dummy", "1.0.0", "-", "no", "sandbox", "built-in"]);
    expect(lines).toHaveLength(names.length + 1);
  });

  test("an agent.yaml that does not load: one line naming it, the others listed from that home, exit 1", async () => {
    const home = join(tmp.path, "home");
    mkdirSync(join(home, "agents", "bad"), { recursive: true });
    for (const n of ["images", "runtime", "models", "datasets"]) symlinkSync(join(repoRoot, n), join(home, n));
    cpSync(join(repoRoot, "agents", "dummy"), join(home, "agents", "dummy"), { recursive: true });
    writeFileSync(join(home, "agents", "bad", "agent.yaml"), "name: bad\nwires: [telepathy]\n");
    writeFileSync(join(home, "agents", "bad", "Dockerfile"), "FROM scratch\n");
    const r = await ssebench(["agents"], { env: { SSEBENCH_HOME: home } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`${join(home, "agents", "bad", "agent.yaml")}: wires must be a list of: anthropic, chat, responses, gemini\n`);
    expect(r.stdout.trimEnd().split("\n").slice(1).map((l) => l.split(/ {2,}/))).toEqual([["dummy", "1.0.0", "-", "no", "sandbox", join(home, "agents")]]);
  });
});

describe("ssebench models", () => {
  test("the built-in models, then the user's folder ($SSEBENCH_MODELS or --models DIR); a bad file is one line naming it, a hidden name is said", async () => {
    const builtIn = await ssebench(["models", "--json"], { cwd: "/", env: noUser });
    expect([builtIn.exitCode, builtIn.stderr]).toEqual([0, ""]);
    const listed = JSON.parse(builtIn.stdout) as { name: string; source: string; provider: string; wires: string[]; upstream_model: string | null }[];
    expect(listed.map((m) => [m.name, m.source])).toEqual(BUILT_IN.map((n) => [n, "built-in"]));
    expect(listed.find((m) => m.name === "gpt-5")).toMatchObject({ provider: "openai", wires: ["chat", "responses"], upstream_model: "gpt-5" });

    for (const how of [{ args: ["--models", mine], env: noUser }, { args: [], env: { SSEBENCH_MODELS: mine } }]) {
      // Files below the working folder are named relative to it.
      const r = await ssebench(["models", "--json", ...how.args], { cwd: tmp.path, env: how.env });
      expect(r.exitCode).toBe(1);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines).toEqual([
        "my-models/broken.yaml: upstream_model: required with provider: other",
        gatewayMsg.modelHidden(join(mine, "scripted.yaml"), "scripted", join(repoRoot, "models", "scripted.yaml")),
      ]);
      expect(hasNoStackTrace(r.stderr)).toBe(true);
      const models = JSON.parse(r.stdout) as { name: string; source: string; provider: string; upstream_model: string | null; wires: string[] }[];
      expect(models.map((m) => [m.name, m.source])).toEqual([
        ["claude-sonnet-4-6", "built-in"],
        ["gpt-5", "built-in"],
        ["local-qwen", mine],
        ["scripted", "built-in"],
      ]);
      expect(models.find((m) => m.name === "local-qwen")).toMatchObject({ provider: "other", upstream_model: "Qwen/Qwen3-Coder-30B-A3B-Instruct", wires: ["chat"] });
    }
    const missing = await ssebench(["models", "--models", join(tmp.path, "nowhere")], { env: noUser });
    expect([missing.exitCode, missing.stdout, missing.stderr]).toEqual([1, "", `${gatewayMsg.modelsMissing(join(tmp.path, "nowhere"))}\n`]);
  });

  test("run: a misspelt model gets 'did you mean' among the built-in and the folder's models; run --help names both listings", async () => {
    const r = await ssebench(["run", "--local", join(repoRoot, "datasets", "demo"), "--task", "htmlesc-quote-overflow", "--agent", "claude-code", "--model", "local-qwn", "--models", mine], { env: noUser });
    expect([r.exitCode, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toBe(`${gatewayMsg.unknownModel("local-qwn", ["broken", "claude-sonnet-4-6", "gpt-5", "local-qwen", "scripted"])}\n`);
    expect(r.stderr).toContain("Did you mean 'local-qwen'?");
    // A job (two tasks) passes --models to every trial.
    const job = await ssebench(["run", "--local", join(repoRoot, "datasets", "demo"), "--task", "htmlesc-quote-overflow", "--task", "fixedbuf-extend-overflow", "--agent", "claude-code", "--model", "local-qwn", "--models", mine, "--results", join(tmp.path, "results")], { env: noUser });
    expect([job.exitCode, job.stderr]).toEqual([1, r.stderr]);
    // gateway serve finds a --model the same way: the folder's model, whose key is not set.
    const serve = await ssebench(["gateway", "serve", "--port", "0", "--models", mine, "--model", "local-qwen"], { cwd: tmp.path, env: noUser });
    expect([serve.exitCode, serve.stdout, serve.stderr]).toEqual([1, "", `${gatewayMsg.keyMissing("my-models/local-qwen.yaml", "local-qwen", "VLLM_API_KEY")}\n`]);
    const help = await ssebench(["run", "--help"]);
    expect(help.stdout).toContain("ssebench agents");
    expect(help.stdout).toContain("ssebench models");
    expect(help.stdout).toContain("--models");
  });
});
