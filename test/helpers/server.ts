/**
 * A server the compiled binary runs for a test (`catalog serve`, `view`): started on a free port,
 * its address read from the line it prints, the stream drained so it never blocks on a full pipe.
 */
import { repoRoot, ssebenchBin } from "./cli.ts";

export interface RunningServer {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** every line it printed on that stream so far */
  log: string[];
  /** sends a signal and resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export async function startBinaryServer(args: string[], opts: { stream: "stdout" | "stderr"; url: RegExp; env?: Record<string, string>; cwd?: string }): Promise<RunningServer> {
  const proc = Bun.spawn([ssebenchBin, ...args], {
    cwd: opts.cwd ?? repoRoot,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const log: string[] = [];
  const bytes = (proc[opts.stream] as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let url: string | undefined;
  const deadline = Date.now() + 20_000;
  while (!url && Date.now() < deadline) {
    const { value, done } = await bytes.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    log.push(...lines);
    url = lines.map((l) => opts.url.exec(l)?.[1]).find(Boolean);
  }
  if (!url) {
    proc.kill("SIGKILL");
    const other = opts.stream === "stdout" ? proc.stderr : proc.stdout;
    throw new Error(`ssebench ${args.join(" ")} did not start: ${log.join("\n")}${buffered}\n${await new Response(other as ReadableStream).text()}`);
  }
  void (async () => {
    for (;;) {
      const { value, done } = await bytes.read();
      if (done) return;
      log.push(...decoder.decode(value, { stream: true }).split("\n").filter(Boolean));
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
