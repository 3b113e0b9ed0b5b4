/**
 * End-to-end tests run the compiled `ssebench` against a real Docker engine with the demo dataset's
 * base images built. They run only with SSEBENCH_E2E=1 (.ci/run sets it once the engine is up);
 * otherwise every test shows as skipped with the reason in its name.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers/cli.ts";

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
