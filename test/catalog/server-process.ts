/** Runs `ssebench catalog serve` (the compiled binary) on a free port of 127.0.0.1 for a test. */
import { repoRoot, ssebenchBin } from "../helpers/cli.ts";

export interface RunningServer {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** every line the server logged so far */
  log: string[];
  /** sends a signal and resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export async function startServer(args: string[] = [], env: Record<string, string> = {}): Promise<RunningServer> {
  const proc = Bun.spawn([ssebenchBin, "catalog", "serve", "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const log: string[] = [];
  const bytes = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const reader = {
    async read(): Promise<{ value: string; done: boolean }> {
      const { value, done } = await bytes.read();
      return { value: done ? "" : decoder.decode(value, { stream: true }), done };
    },
  };
  let buffered = "";
  let url: string | undefined;
  const deadline = Date.now() + 15_000;
  while (!url && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    log.push(...lines);
    url = lines.map((l) => /on (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1]).find(Boolean);
  }
  if (!url) {
    proc.kill("SIGKILL");
    throw new Error(`catalog serve did not start: ${log.join("\n")}\n${await new Response(proc.stderr as ReadableStream).text()}`);
  }
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      log.push(...value.split("\n").filter(Boolean));
    }
  })();
  return {
    url,
    proc,
    log,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      proc.kill(signal);
      return proc.exited;
    },
  };
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
