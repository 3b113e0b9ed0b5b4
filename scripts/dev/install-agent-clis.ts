/**
 * Installs the npm CLIs of the checkout's agents (agent.yaml `npm`, with the runtime a JavaScript
 * CLI names in `with`) into the host cache that
 * `ssebench run` uses ($SSEBENCH_NPM_CACHE, default /var/cache/ssebench/npm), checked against
 * the pinned integrity; an install already in the cache is kept. .ci/run calls it before the
 * e2e step so the real-agent tests find their CLIs, and prints the time each install took.
 *   bun scripts/dev/install-agent-clis.ts [agent…]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureNpmCli, npmCacheDir, npmSpecs } from "../../src/run/layers/agent-npm.ts";
import { listAgents, loadAgent } from "../../src/run/layers/agents.ts";

const agentsDir = join(import.meta.dir, "../..", "agents");
const names = process.argv.length > 2 ? process.argv.slice(2) : listAgents(agentsDir);
for (const name of names) {
  const agent = await loadAgent(agentsDir, name);
  if (!agent.npm) continue;
  const dir = npmCacheDir(process.env, agent.npm);
  const cached = existsSync(join(dir, ".ssebench-installed.json"));
  const t0 = performance.now();
  await ensureNpmCli(agent.npm, process.env);
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`${name}: ${npmSpecs(agent.npm).join(" ")} ${cached ? "already in" : `installed in ${s} s into`} ${dir}`);
}
