/**
 * The agent's way to its model (docs/gateway.md): `ssebench run` mounts a per-run folder read-only
 * at /run/ssebench holding the gateway's Unix socket (`model.sock`) and the run's key (`api-key`,
 * readable by root only). The entrypoint reads the key as root, so it is in no `docker inspect`
 * output, and forwards 127.0.0.1:4000 byte for byte to the socket, so the container needs no
 * network at all. The agent (and `llm: true` plugins) get SSE_BASE_URL and SSE_API_KEY.
 * Kept light: it is on the entrypoint's start-up path.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";
import { relayTcpToUnix } from "./socket-relay.ts";

export const MODEL_DIR = "/run/ssebench";
export const MODEL_SOCKET = "model.sock";
/** The gateway's socket whose calls its ledger marks as plugin calls (docs/gateway.md). */
export const MODEL_PLUGIN_SOCKET = "plugin.sock";
export const MODEL_KEY_FILE = "api-key";
export const FORWARD_PORT = 4000;

type Env = Record<string, string | undefined>;

/** Where new connections go: the agent's socket, then (after grading) the plugin socket. */
const target = { path: "" };

/** Starts the forwarder when the run has a model; returns the variables the agent gets (none without). */
export function openModelAccess(env: Env): Record<string, string> {
  const dir = env.SSE_MODEL_DIR || MODEL_DIR;
  const socketPath = join(dir, MODEL_SOCKET);
  if (!existsSync(socketPath)) return {};
  let key: string;
  try {
    key = readFileSync(join(dir, MODEL_KEY_FILE), "utf8").trim();
  } catch (e) {
    throw new UserError(msg.modelKeyUnreadable(dir, e instanceof Error ? e.message : String(e)));
  }
  const port = env.SSE_MODEL_PORT ? Number(env.SSE_MODEL_PORT) : FORWARD_PORT;
  let listener: ReturnType<typeof relayTcpToUnix>;
  try {
    target.path = socketPath;
    listener = relayTcpToUnix("127.0.0.1", port, () => target.path);
  } catch (e) {
    throw new UserError(msg.modelPortBusy(port, e instanceof Error ? e.message : String(e)));
  }
  return { SSE_BASE_URL: `http://127.0.0.1:${listener.port}`, SSE_API_KEY: key };
}

/** Whether the forwarder to the run's model is up. */
export const modelForwarding = (): boolean => target.path !== "";

/**
 * From now on, new connections go to the gateway's plugin socket (when it has one), so the
 * ledger marks their calls as plugin calls. Called before the after-grading plugins, once no
 * process of the agent's user or the runner (which ran the agent's code in grading) is left:
 * only root's plugins run then. Connections already open keep their socket.
 */
export function routeLaterCallsToPlugins(env: Env): boolean {
  if (!target.path) return false;
  const plugins = join(env.SSE_MODEL_DIR || MODEL_DIR, MODEL_PLUGIN_SOCKET);
  if (!existsSync(plugins)) return false;
  target.path = plugins;
  return true;
}
