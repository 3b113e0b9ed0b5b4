/**
 * End-to-end tests run the compiled `ssebench` against a real Docker engine with the demo dataset's
 * base images built. They run only with SSEBENCH_E2E=1 (.ci/run sets it once the engine is up);
 * otherwise every test shows as skipped with the reason in its name.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, ssebench, ssebenchBin, tempDir } from "../helpers/cli.ts";

export const E2E = process.env.SSEBENCH_E2E === "1";
export const SKIP_REASON = E2E ? "" : " [skipped: set SSEBENCH_E2E=1 with a Docker engine running]";
export const demoDir = join(repoRoot, "datasets", "demo");
export const DEMO_TASK = "htmlesc-quote-overflow";
/** Agent folders that attack the run (test/e2e/fixtures/hostile-agents/<name>). */
export const hostileAgentsDir = join(import.meta.dir, "fixtures", "hostile-agents");

/** `docker ARGS…` → stdout (trimmed). */
export function docker(args: string[]): string {
  const r = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" });
  return r.stdout.toString().trim();
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/**
 * A home beside the checkout's: its images, runtime, models, datasets, the dummy and reference
 * agents, plus test-only agents (folder name → Dockerfile CMD), so tests can run agents that
 * sleep or eat memory without adding them to the product, and fixture agent folders by name.
 */
export function homeWithAgents(agents: Record<string, string>, fixtureAgents: string[] = []): { path: string; cleanup: () => void } {
  const home = tempDir("ssebench-e2e-home-");
  for (const name of ["images", "runtime", "models", "datasets"]) symlinkSync(join(repoRoot, name), join(home.path, name));
  mkdirSync(join(home.path, "agents"));
  for (const real of ["dummy", "reference"]) symlinkSync(join(repoRoot, "agents", real), join(home.path, "agents", real));
  for (const name of fixtureAgents) symlinkSync(join(hostileAgentsDir, name), join(home.path, "agents", name));
  for (const [name, cmd] of Object.entries(agents)) {
    const dir = join(home.path, "agents", name);
    mkdirSync(dir);
    writeFileSync(join(dir, "agent.yaml"), `name: ${name}\nuses_model: false\n`);
    writeFileSync(join(dir, "Dockerfile"), `FROM scratch\nCOPY agent.yaml /opt/agent/agent.yaml\nCMD ${cmd}\n`);
  }
  return home;
}

/**
 * A home for the real agent CLIs: the checkout's images, runtime, datasets and agents, and its
 * models plus the scripted models of test/e2e/fixtures/agent-models (with their scripts).
 */
export function agentModelsHome(): { path: string; cleanup: () => void } {
  const home = tempDir("ssebench-e2e-agents-home-");
  for (const name of ["images", "runtime", "datasets", "agents"]) symlinkSync(join(repoRoot, name), join(home.path, name));
  mkdirSync(join(home.path, "models"));
  const fixtureModels = join(import.meta.dir, "fixtures", "agent-models");
  for (const f of readdirSync(join(repoRoot, "models"))) symlinkSync(join(repoRoot, "models", f), join(home.path, "models", f));
  for (const f of readdirSync(fixtureModels).filter((f) => f.endsWith(".yaml"))) symlinkSync(join(fixtureModels, f), join(home.path, "models", f));
  symlinkSync(join(fixtureModels, "fixture-scripts"), join(home.path, "models", "fixture-scripts"));
  return home;
}

/** `ssebench run` of an agent on the demo task with a model, and where its run directory is. */
export function agentRunner(results: string, home: string) {
  const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home, SSEBENCH_NPM_CACHE: process.env.SSEBENCH_NPM_CACHE };
  return {
    run: (agent: string, model: string, id: string, extra: string[] = []) =>
      ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results, "--timeout", "600", "--agent", agent, "--model", model, "--run-id", id, ...extra], { env }),
    runDir: (agent: string, model: string, id: string) => join(results, DEMO_TASK, model, agent, id),
  };
}

export const jsonl = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter((l) => l)
    .map((l) => JSON.parse(l) as T);

/** A line of an agent's archive/dialog.jsonl, as the tests read it. */
export interface DialogLine {
  seq: number;
  type: string;
  status?: string;
  name?: string;
  tool_id?: string;
  turns?: number;
  message?: string;
  /** a message's text */
  content?: string;
  data?: Record<string, string>;
  total_tokens?: { in: number; out: number };
}

/**
 * `ssebench ARGS…` in the background with its stderr read as it comes, for tests that signal it
 * mid-run: `until(text)` reads until the text (or a match) has come, `rest()` to the end.
 */
export function watchedSsebench(args: string[], env: Record<string, string | undefined>) {
  const proc = Bun.spawn([ssebenchBin, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdout: "pipe", stderr: "pipe" });
  const decoder = new TextDecoder();
  const reader = proc.stderr.getReader();
  const watched = {
    proc,
    stderr: "",
    async until(wanted: string | RegExp): Promise<void> {
      const seen = () => (typeof wanted === "string" ? watched.stderr.includes(wanted) : wanted.test(watched.stderr));
      while (!seen() && (await readMore()));
    },
    async rest(): Promise<string> {
      while (await readMore());
      return watched.stderr;
    },
  };
  const readMore = async () => {
    const { value, done } = await reader.read();
    if (value) watched.stderr += decoder.decode(value);
    return !done;
  };
  return watched;
}
