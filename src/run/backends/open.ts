/** Picks the backend `--backend` names (backend.ts); swarm is loaded only when asked for. */
import type { Backend, BackendName } from "./backend.ts";
import type { Docker } from "./docker.ts";

/** Opens the backend `--backend` names. */
export async function openBackend(
  name: BackendName,
  /** the local engine (the one that builds the layers) */
  docker: Docker,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  constraints: readonly string[] = [],
): Promise<Backend> {
  if (name === "local") {
    const { LocalBackend } = await import("./local.ts");
    return new LocalBackend(docker);
  }
  const { SwarmBackend } = await import("./swarm.ts");
  return SwarmBackend.open(env, log, constraints, undefined, docker);
}
