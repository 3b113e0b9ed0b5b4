/**
 * A TCP listener that relays each connection byte for byte to a Unix socket or a TCP address, with
 * back-pressure both ways. The entrypoint's model forwarder (model-access.ts) and `ssebench-entrypoint
 * relay` (a Swarm trial's way to the host's results receiver and gateway) use it. Kept light.
 */
import type { Socket } from "bun";

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

/**
 * How long, and how often, a Swarm trial's relay is waited for (it starts beside the trial): a
 * forwarded connection to a TCP target retries its connect, and the results upload probes it.
 */
export const TCP_CONNECT_WAIT_MS = 30_000;
export const TCP_CONNECT_RETRY_MS = 250;

/** `/path` (a Unix socket) or `host:port` (TCP, `[v6]:port` too); undefined when it is neither. */
export function relayTarget(target: string): { unix: string } | { hostname: string; port: number } | undefined {
  if (target.startsWith("/")) return { unix: target };
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9][a-z0-9.-]*):(\d{1,5})$/i.exec(target);
  if (!m || Number(m[2]) > 65535) return undefined;
  return { hostname: (m[1] as string).replace(/^\[|\]$/g, ""), port: Number(m[2]) };
}

/**
 * Listens on `hostname:port` and relays each connection byte for byte to what `target()` names
 * when the connection opens (relayTarget's forms; the target can change for later connections).
 */
export function relayTcp(hostname: string, port: number, target: () => string) {
  return Bun.listen<Link>({ hostname, port, socket: relayHandlers(target) });
}

/** The same on a Unix socket at `path` (sidecar mode's socket folder: runtime/sidecar/link.ts). */
export function relayUnix(path: string, target: () => string) {
  return Bun.listen<Link>({ unix: path, socket: relayHandlers(target) });
}

function relayHandlers(target: () => string): Bun.SocketHandler<Link> {
  return {
    open(client) {
      const link: Link = { up: undefined, closed: false, toUp: new Outbox(() => link.up), toClient: new Outbox(() => client) };
      client.data = link;
      const to = relayTarget(target());
      if (!to) return void client.end();
      const handlers: Parameters<typeof Bun.connect<undefined>>[0]["socket"] = {
        open(up) {
          if (link.closed) return void up.end();
          link.up = up as Socket<unknown>;
          link.toUp.flush();
        },
        data: (_up, chunk) => link.toClient.send(chunk),
        drain: () => link.toUp.flush(),
        close: () => void client.end(),
        error: () => void client.end(),
      };
      const since = Date.now();
      const connect = (): void => {
        const connecting = "unix" in to ? Bun.connect<undefined>({ unix: to.unix, socket: handlers }) : Bun.connect<undefined>({ ...to, socket: handlers });
        connecting.catch(() => {
          if (link.closed) return;
          // A TCP target is a Swarm trial's relay, started beside the trial's container: the
          // agent's first call may come before its name resolves or its port accepts.
          if ("unix" in to || Date.now() - since >= TCP_CONNECT_WAIT_MS) return void client.end();
          setTimeout(connect, TCP_CONNECT_RETRY_MS);
        });
      };
      connect();
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
  };
}

