/** What the swarm tests share: the swarm's engines as `swarm-two-node.sh env` names them, and what a trial leaves. */
export const SWARM = process.env.SSEBENCH_E2E === "1" && process.env.SSEBENCH_SWARM === "1";
export const SKIP = SWARM ? "" : " [skipped: set SSEBENCH_E2E=1 SSEBENCH_SWARM=1 with the test swarm up (setup/swarm-two-node.sh)]";
export const manager = process.env.SSEBENCH_SWARM_HOST ?? "";
/** node ID → engine, as the swarm script prints them */
export const nodes = new Map((process.env.SSEBENCH_SWARM_NODES ?? "").split(",").filter(Boolean).map((p) => p.split("=") as [string, string]));

export function dockerAt(host: string, args: string[]): string {
  const r = Bun.spawnSync(["docker", ...args], { env: { ...process.env, DOCKER_HOST: host }, stdout: "pipe", stderr: "pipe" });
  return r.stdout.toString().trim();
}
export const onManager = (args: string[]) => dockerAt(manager, args);
export const nodeWithRole = (role: string) => onManager(["node", "ls", "--quiet", "--filter", `node.label=ssebench.role=${role}`]);

/** The swarm variables of `ssebench run` (images through the registry when CI names one, else save | load). */
export function swarmEnv(home: string): Record<string, string | undefined> {
  const { DOCKER_HOST, SSEBENCH_SWARM_NODES, SSEBENCH_SWARM_REGISTRY, SSEBENCH_SWARM_REGISTRY_PULL, SSEBENCH_NPM_CACHE } = process.env;
  return { DOCKER_HOST, SSEBENCH_HOME: home, SSEBENCH_SWARM_HOST: manager, SSEBENCH_SWARM_NODES, SSEBENCH_SWARM_REGISTRY, SSEBENCH_SWARM_REGISTRY_PULL, SSEBENCH_NPM_CACHE };
}

/** Run IDs of the ssebench containers an engine started since `since` (its own event log). */
export function runIdsStarted(host: string, since: string): string[] {
  const out = dockerAt(host, ["events", "--since", since, "--until", new Date().toISOString(), "--filter", "type=container", "--filter", "event=start", "--filter", "label=ssebench.run-id", "--format", '{{index .Actor.Attributes "ssebench.run-id"}}']);
  return out.split("\n").filter(Boolean);
}

/** What the swarm still holds of any trial: services, networks, secrets, and containers on any node. */
export async function leftovers(): Promise<string[]> {
  const held = () =>
    [
      ...onManager(["service", "ls", "--quiet", "--filter", "label=ssebench.backend=swarm"]).split("\n"),
      ...onManager(["network", "ls", "--quiet", "--filter", "label=ssebench.backend=swarm"]).split("\n"),
      ...onManager(["secret", "ls", "--quiet", "--filter", "label=ssebench.run-id"]).split("\n"),
      ...[...nodes.values()].flatMap((engine) => dockerAt(engine, ["ps", "--all", "--quiet", "--filter", "label=ssebench.backend=swarm"]).split("\n")),
    ].filter(Boolean);
  // A node removes a removed service's container a moment later.
  for (let i = 0; i < 40 && held().length > 0; i++) await Bun.sleep(250);
  return held();
}
