/**
 * `ssebench-entrypoint relay HOST:PORT SOCKET [HOST:PORT SOCKET]…`: relays TCP connections on each
 * HOST:PORT to its Unix socket until SIGTERM/SIGINT. In a swarm, a trial's relay on the
 * orchestrator's node, attached to the trial's internal overlay and bind-mounting the host's
 * results receiver socket (and, for a run with a model, the run's gateway sockets), is how the
 * trial reaches them (docs/backends.md) with no route out of the overlay.
 */
import { ExitCode, UserError } from "../../errors.ts";
import { msg } from "../messages.ts";
import { relayTcp } from "./socket-relay.ts";
import { writeOut } from "../write-out.ts";

export async function runRelay(args: string[]): Promise<number> {
  if (args.length === 0 || args.length % 2 !== 0) throw new UserError(msg.relayUsage(), ExitCode.usage);
  const pairs: { host: string; port: number; listen: string; socket: string }[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const listen = args[i] as string;
    const socket = args[i + 1] as string;
    const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(listen);
    if (!m || !socket.startsWith("/")) throw new UserError(msg.relayUsage(), ExitCode.usage);
    if (Number(m[2]) > 65535) throw new UserError(msg.relayBadPort(m[2] as string), ExitCode.usage);
    pairs.push({ host: (m[1] as string).replace(/^\[|\]$/g, ""), port: Number(m[2]), listen, socket });
  }
  const listeners: ReturnType<typeof relayTcp>[] = [];
  for (const { host, port, listen, socket } of pairs) {
    try {
      listeners.push(relayTcp(host, port, () => socket));
    } catch (e) {
      for (const l of listeners) l.stop(true);
      throw new UserError(msg.relayListen(listen, e instanceof Error ? e.message : String(e)));
    }
    writeOut(1, `ssebench-entrypoint relay: ${host}:${(listeners.at(-1) as ReturnType<typeof relayTcp>).port} -> ${socket}\n`);
  }
  await new Promise<void>((resolve) => {
    for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => resolve());
  });
  for (const l of listeners) l.stop(true);
  return 0;
}
