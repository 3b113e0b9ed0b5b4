/**
 * `ssebench-entrypoint relay HOST:PORT SOCKET`: relays TCP connections on HOST:PORT to a Unix
 * socket until SIGTERM/SIGINT. In a swarm, a relay service on the orchestrator's node, attached to
 * a trial's internal overlay and bind-mounting the folder of the host's results receiver socket,
 * is how the trial reaches the receiver (docs/registry.md) with no route out of the overlay.
 */
import { ExitCode, UserError } from "../errors.ts";
import { msg } from "./messages.ts";
import { relayTcpToUnix } from "./socket-relay.ts";
import { writeOut } from "./write-out.ts";

export async function runRelay(args: string[]): Promise<number> {
  const [listen, socket, ...rest] = args;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9.-]+):(\d{1,5})$/i.exec(listen ?? "");
  if (!m || !socket?.startsWith("/") || rest.length > 0) throw new UserError(msg.relayUsage(), ExitCode.usage);
  if (Number(m[2]) > 65535) throw new UserError(msg.relayBadPort(m[2] as string), ExitCode.usage);
  const host = (m[1] as string).replace(/^\[|\]$/g, "");
  let listener: ReturnType<typeof relayTcpToUnix>;
  try {
    listener = relayTcpToUnix(host, Number(m[2]), () => socket);
  } catch (e) {
    throw new UserError(msg.relayListen(listen as string, e instanceof Error ? e.message : String(e)));
  }
  writeOut(1, `ssebench-entrypoint relay: ${host}:${listener.port} -> ${socket}\n`);
  await new Promise<void>((resolve) => {
    for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => resolve());
  });
  listener.stop(true);
  return 0;
}
