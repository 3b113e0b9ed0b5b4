/** Runs `ssebench catalog serve` (the compiled binary) on a free port of 127.0.0.1 for a test. */
import { type RunningServer, startBinaryServer } from "../helpers/server.ts";

export type { RunningServer };

export function startServer(args: string[] = [], env: Record<string, string> = {}): Promise<RunningServer> {
  return startBinaryServer(["catalog", "serve", "--host", "127.0.0.1", "--port", "0", ...args], { stream: "stdout", url: /on (http:\/\/127\.0\.0\.1:\d+)/, env });
}

/** One raw HTTP/1.1 request (paths and methods exactly as given, nothing normalised). */
export async function rawRequest(url: string, requestLine: string, headers: string[] = []): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(url);
  const chunks: Uint8Array[] = [];
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data: (_s, data) => void chunks.push(new Uint8Array(data)),
      close: () => resolve(),
      error: (_s, error) => reject(error),
    },
  });
  socket.write(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`);
  await promise;
  const text = Buffer.concat(chunks).toString("utf8");
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split);
  return { status: Number(head.split(" ")[1]), head, body: text.slice(split + 4) };
}
