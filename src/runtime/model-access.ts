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
import type { Socket } from "bun";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export const MODEL_DIR = "/run/ssebench";
export const MODEL_SOCKET = "model.sock";
/** The gateway's socket whose calls its ledger marks as plugin calls (docs/gateway.md). */
export const MODEL_PLUGIN_SOCKET = "plugin.sock";
export const MODEL_KEY_FILE = "api-key";
export const FORWARD_PORT = 4000;

type Env = Record<string, string | undefined>;

/** Writes what the peer can take now and queues the rest until its drain. */
class Outbox {
  private queue: Uint8Array[] = [];
  constructor(private readonly socket: () => Socket<unknown> | undefined) {}
  send(data: Uint8Array): void {
    const s = this.socket();
    if (!s || this.queue.length > 0) {
      this.queue.push(new Uint8Array(data));
      return;
    }
    const n = s.write(data);
    if (n < data.length) this.queue.push(new Uint8Array(data.subarray(Math.max(n, 0))));
  }
  flush(): void {
    const s = this.socket();
    while (s && this.queue.length > 0) {
      const head = this.queue[0] as Uint8Array;
      const n = s.write(head);
      if (n < head.length) {
        this.queue[0] = head.subarray(Math.max(n, 0));
        return;
      }
      this.queue.shift();
    }
  }
}

interface Link {
  up: Socket<unknown> | undefined;
  toUp: Outbox;
  toClient: Outbox;
  closed: boolean;
}

/** Where new connections go: the agent's socket, then (after grading) the plugin socket. */
const target = { path: "" };

function forward(port: number) {
  return Bun.listen<Link>({
    hostname: "127.0.0.1",
    port,
    socket: {
      open(client) {
        const link: Link = { up: undefined, closed: false, toUp: new Outbox(() => link.up), toClient: new Outbox(() => client) };
        client.data = link;
        Bun.connect<undefined>({
          unix: target.path,
          socket: {
            open(up) {
              if (link.closed) return void up.end();
              link.up = up as Socket<unknown>;
              link.toUp.flush();
            },
            data: (_up, chunk) => link.toClient.send(chunk),
            drain: () => link.toUp.flush(),
            close: () => void client.end(),
            error: () => void client.end(),
          },
        }).catch(() => void client.end());
      },
      data: (client, chunk) => client.data.toUp.send(chunk),
      drain: (client) => client.data.toClient.flush(),
      close(client) {
        client.data.closed = true;
        client.data.up?.end();
      },
      error(client) {
        client.data.closed = true;
        client.data.up?.end();
      },
    },
  });
}

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
  let listener: ReturnType<typeof forward>;
  try {
    target.path = socketPath;
    listener = forward(port);
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
