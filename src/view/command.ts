/**
 * `ssebench view [JOB|DIR…] [--host H] [--port N]`: finds the sources, binds the viewer (loopback by
 * default), prints one line with its address on stderr, and serves until SIGINT or SIGTERM, then
 * stops listening and exits 0.
 */
import { err } from "../output/terminal.ts";
import { describeCause, usageError, UserError } from "../errors.ts";
import { createViewApp } from "./app.ts";
import { Events } from "./events.ts";
import { Library } from "./library.ts";
import { msg } from "./messages.ts";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8090;

export interface ViewArgs {
  sources: string[];
  results: string;
  host: string | undefined;
  port: string | undefined;
}

export function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw usageError(msg.badPort(value));
  return port;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/** The Host header values a loopback viewer answers: its address, localhost and the loopback addresses, with its port or none. */
function allowedHosts(host: string, port: number): Set<string> | undefined {
  if (!LOOPBACK.test(host)) return undefined;
  const names = [host.includes(":") ? `[${host}]` : host, "localhost", "127.0.0.1", "[::1]"].map((h) => h.toLowerCase());
  return new Set(names.flatMap((h) => [h, `${h}:${port}`]));
}

export async function viewCommand(args: ViewArgs): Promise<number> {
  const port = parsePort(args.port);
  const host = args.host?.trim() || DEFAULT_HOST;
  const library = new Library(args.sources, args.results);
  const events = new Events(library);
  let server: ReturnType<typeof Bun.serve>;
  // The Host check needs the port, which is only known once bound (--port 0).
  let hosts: Set<string> | undefined;
  const app = createViewApp({
    library,
    events,
    allowHost: (value) => hosts === undefined || hosts.has(value),
    onStream: (request) => server.timeout(request, 0),
    onError: (e) => err(`ssebench view: ${describeCause(e)}`),
  });
  try {
    server = Bun.serve({ port, hostname: host, development: false, reusePort: false, idleTimeout: 30, fetch: (request) => app.fetch(request) });
  } catch (cause) {
    throw new UserError(msg.cannotListen(host, port, describeCause(cause)));
  }
  hosts = allowedHosts(host, server.port as number);
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const s of ["SIGINT", "SIGTERM"] as const) process.off(s, stop);
      err(msg.stopping(signal));
      events.close();
      void server.stop(true).then(() => resolve(0));
    };
    for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, stop);
  });
  if (!hosts) err(msg.notLoopback(host));
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${server.port}`;
  err(msg.serving(library.jobs().length, library.folders.length, url));
  return stopped;
}
