/** Placeholder until the Swarm backend lands (issue 18): refuses with one line. */
import { UserError } from "../errors.ts";
import type { Backend } from "./backend.ts";
import type { Docker } from "./docker.ts";

export const SwarmBackend = {
  async open(_docker: Docker, _env: NodeJS.ProcessEnv, _log: (line: string) => void): Promise<Backend> {
    throw new UserError("--backend swarm is not available in this build yet");
  },
};
