/**
 * The agent's way to its model (docs/gateway.md): `ssebench run` mounts a per-run folder read-only
 * at /run/ssebench holding the gateway's Unix socket (`model.sock`) and the run's key (`api-key`,
 * readable by root only). The entrypoint reads the key as root, so it is in no `docker inspect`
 * output, and forwards 127.0.0.1:4000 byte for byte to the socket, so the container needs no
 * network at all. A Swarm trial has no such mount (bind mounts are node-local): a root-only
 * secret (`/run/secrets/ssebench-model`) holds the key and the TCP addresses on the trial's own
 * network where its relay carries the calls to the run's gateway sockets on the orchestrator's
 * node. The agent (and `llm: true` plugins) get SSE_BASE_URL and SSE_API_KEY.
 * Kept light: it is on the entrypoint's start-up path.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL_KEY_FILE, MODEL_PLUGIN_KEY_FILE, MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../../contract/model.ts";
import { UserError } from "../../errors.ts";
import type { ModelAccessSettings } from "../config.ts";
import { msg } from "../messages.ts";
import { parseSecretJson, readRootOnlyFile } from "./secret-file.ts";
import { relayTarget, relayTcp } from "./socket-relay.ts";

/** Where new connections go: the agent's socket, then (after grading) the plugin socket. */
const target = { path: "", agent: "", plugin: "", pluginKey: "" };

interface Access {
  key: string;
  agent: string;
  /** where calls go once only root's plugins run; "" when the run has none */
  plugin: string;
  /** the key for those calls; "" when the plugin socket takes the agent's */
  pluginKey: string;
}

const KEY = /^[\x21-\x7e]{8,512}$/;

/** A key file of the mounted folder; one that cannot be read is one line. */
function readKeyFile(dir: string, name: string): string {
  try {
    return readFileSync(join(dir, name), "utf8").trim();
  } catch (e) {
    throw new UserError(msg.modelKeyUnreadable(dir, e instanceof Error ? e.message : String(e)));
  }
}

/** The run's key and gateway: the mounted folder (a local run), else the Swarm secret, else none. */
function findAccess({ dir, file }: ModelAccessSettings): Access | undefined {
  const socketPath = join(dir, MODEL_SOCKET);
  if (existsSync(socketPath)) {
    const key = readKeyFile(dir, MODEL_KEY_FILE);
    const plugin = join(dir, MODEL_PLUGIN_SOCKET);
    const pluginKey = existsSync(join(dir, MODEL_PLUGIN_KEY_FILE)) ? readKeyFile(dir, MODEL_PLUGIN_KEY_FILE) : "";
    return { key, agent: socketPath, plugin: existsSync(plugin) ? plugin : "", pluginKey };
  }
  const text = readRootOnlyFile(file, msg.modelFile);
  if (text === undefined) return undefined;
  const doc = parseSecretJson(text, file, msg.modelFile);
  if (typeof doc.key !== "string" || !KEY.test(doc.key)) throw new UserError(msg.modelFile(file, 'has no "key"'));
  for (const field of ["agent", "plugin"] as const) {
    const value = doc[field];
    if (value === undefined && field === "plugin") continue;
    if (typeof value !== "string" || value.startsWith("/") || !relayTarget(value)) throw new UserError(msg.modelFile(file, `has no "${field}" (host:port)`));
  }
  const pluginKey = doc.plugin_key;
  if (pluginKey !== undefined && (typeof pluginKey !== "string" || !KEY.test(pluginKey))) throw new UserError(msg.modelFile(file, 'has a malformed "plugin_key"'));
  return { key: doc.key, agent: doc.agent as string, plugin: (doc.plugin as string | undefined) ?? "", pluginKey: pluginKey ?? "" };
}

/** Starts the forwarder when the run has a model; returns the variables the agent gets (none without). */
export function openModelAccess(settings: ModelAccessSettings): Record<string, string> {
  const access = findAccess(settings);
  if (!access) return {};
  const port = settings.port;
  let listener: ReturnType<typeof relayTcp>;
  try {
    target.path = access.agent;
    target.agent = access.agent;
    target.plugin = access.plugin;
    target.pluginKey = access.pluginKey;
    listener = relayTcp("127.0.0.1", port, () => target.path);
  } catch (e) {
    throw new UserError(msg.modelPortBusy(port, e instanceof Error ? e.message : String(e)));
  }
  return { SSE_BASE_URL: `http://127.0.0.1:${listener.port}`, SSE_API_KEY: access.key };
}

/** The agent's way to the gateway (never the plugin socket): a sidecar's model socket relays there. */
export const agentModelTarget = (): string => target.agent;

/** Whether the forwarder to the run's model is up. */
export const modelForwarding = (): boolean => target.path !== "";

/**
 * From now on, new connections go to the gateway's plugin socket (when it has one), so the
 * ledger marks their calls as plugin calls. Called before the after-grading plugins, once no
 * process of the agent's user or the runner (which ran the agent's code in grading) is left:
 * only root's plugins run then. Connections already open keep their socket.
 */
export function routeLaterCallsToPlugins(): boolean {
  if (!target.path || !target.plugin) return false;
  target.path = target.plugin;
  return true;
}

/** The key plugins send once routed to the plugin socket ("" when it takes the agent's). */
export const pluginModelKey = (): string => target.pluginKey;
