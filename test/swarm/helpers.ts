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

/**
 * The containers an engine starts from now until `stop()`: each as its name and its ssebench.run-id
 * label ("" when it has none). Watched live, not asked for afterwards with --since: an engine keeps
 * only its last 256 events to answer that, and a job of six trials makes more (the first relay's
 * start was gone from the manager's by the end of one, failing this check in a CI run).
 */
export function watchStarts(host: string): { stop: () => Promise<{ name: string; runId: string }[]> } {
  const since = new Date().toISOString();
  const format = '{{.Actor.Attributes.name}}\t{{index .Actor.Attributes "ssebench.run-id"}}';
  const proc = Bun.spawn(["docker", "events", "--since", since, "--filter", "type=container", "--filter", "event=start", "--format", format], {
    env: { ...process.env, DOCKER_HOST: host },
    stdout: "pipe",
    stderr: "ignore",
  });
  const text = new Response(proc.stdout).text();
  return {
    stop: async () => {
      // The engine sends an event when it happened; a moment lets the last one reach the stream.
      await Bun.sleep(1000);
      proc.kill();
      return (await text)
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [name = "", runId = ""] = line.split("\t");
          return { name, runId: runId === "<no value>" ? "" : runId };
        });
    },
  };
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
