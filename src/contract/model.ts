/**
 * The agent's way to its model (docs/gateway.md): a local run mounts a folder read-only at
 * MODEL_DIR with the gateway's sockets and the run's keys (root only); a Swarm trial gets a
 * root-only secret (ModelSecret) instead. The entrypoint forwards 127.0.0.1:FORWARD_PORT to them.
 */
import { SECRET_MODEL_TARGET, SECRETS_DIR } from "./paths.ts";

/** The run's gateway folder in the container (the entrypoint's default SSE_MODEL_DIR). */
export const MODEL_DIR = "/run/ssebench";
export const MODEL_SOCKET = "model.sock";
/** The gateway's socket whose calls its ledger marks as plugin calls (docs/gateway.md). */
export const MODEL_PLUGIN_SOCKET = "plugin.sock";
export const MODEL_KEY_FILE = "api-key";
/** The key root's after-grading plugins send (the gateway's plugin socket answers it only). */
export const MODEL_PLUGIN_KEY_FILE = "plugin-key";
/** The loopback port the entrypoint forwards to the run's gateway (SSE_BASE_URL). */
export const FORWARD_PORT = 4000;
/** A Swarm trial's model secret (SSE_MODEL_FILE). */
export const MODEL_SECRET_FILE = `${SECRETS_DIR}/${SECRET_MODEL_TARGET}`;

/** The model secret's JSON: the run's key and where, on the trial's network, its relay listens. */
export interface ModelSecret {
  key: string;
  /** host:port of the agent's socket */
  agent: string;
  /** host:port of the plugin socket (absent: the run has none) */
  plugin?: string;
  /** the plugins' key (absent: the plugin socket takes the agent's) */
  plugin_key?: string;
}
