/**
 * The only way `run/` talks to Docker: the `docker` CLI as a child process. Every invocation is
 * logged the same way (debug line with argv, exit code and duration), engine-down and missing-CLI
 * failures become one-line UserErrors, and every call can be aborted (run time limit, Ctrl-C).
 */
import { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";

export interface DockerResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface DockerCallOptions {
  /** Called with each chunk of output (stdout and stderr) as it arrives; output is still collected. */
  onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
  /** Aborting kills the docker client (TERM, then KILL after 5 s). */
  signal?: AbortSignal;
  /** Extra environment for this call only (e.g. DOCKER_BUILDKIT). */
  env?: Record<string, string>;
}

/** The neighbour interface the orchestrator uses; tests give it a fake. */
export interface Docker {
  call(args: readonly string[], opts?: DockerCallOptions): Promise<DockerResult>;
}

export type DockerLog = (line: string) => void;

/** The engine's address as the CLI sees it, for messages. */
export function engineAddress(env: NodeJS.ProcessEnv = process.env): string {
  return env.DOCKER_HOST || "unix:///var/run/docker.sock";
}

const ENGINE_DOWN = [
  /Cannot connect to the Docker daemon/i,
  /Is the docker daemon running/i,
  /error during connect/i,
  /dial unix .*: connect: /i,
];

/** True when a failed call's stderr says the engine is not reachable. */
export function isEngineDown(stderr: string): boolean {
  return ENGINE_DOWN.some((re) => re.test(stderr));
}

/** First non-empty line of a text, for one-line messages. */
export function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !l.startsWith("DEPRECATED")) ?? ""
  );
}

async function drain(
  stream: ReadableStream<Uint8Array>,
  name: "stdout" | "stderr",
  onOutput: DockerCallOptions["onOutput"],
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    const piece = decoder.decode(chunk, { stream: true });
    text += piece;
    onOutput?.(piece, name);
  }
  const rest = decoder.decode();
  if (rest) {
    text += rest;
    onOutput?.(rest, name);
  }
  return text;
}

/** The real CLI. `bin` is looked up on PATH once, on first use. */
export class DockerCli implements Docker {
  private resolved: string | undefined;

  constructor(
    private readonly log: DockerLog = () => {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  private binary(): string {
    if (this.resolved) return this.resolved;
    const found = Bun.which("docker", { PATH: this.env.PATH ?? "" });
    if (!found) throw new UserError(msg.dockerMissing());
    this.resolved = found;
    return found;
  }

  async call(args: readonly string[], opts: DockerCallOptions = {}): Promise<DockerResult> {
    const bin = this.binary();
    if (opts.signal?.aborted) throw new UserError(msg.aborted(String(opts.signal.reason ?? "aborted")));
    const started = performance.now();
    // detached: Ctrl-C in the terminal reaches ssebench only; ssebench decides how to stop things.
    const proc = Bun.spawn([bin, ...args], {
      env: { ...this.env, ...opts.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      proc.kill("SIGTERM");
      killTimer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const [stdout, stderr, code] = await Promise.all([
        drain(proc.stdout, "stdout", opts.onOutput),
        drain(proc.stderr, "stderr", opts.onOutput),
        proc.exited,
      ]);
      this.log(`docker ${args.join(" ")} -> ${code} (${Math.round(performance.now() - started)} ms)`);
      if (code !== 0 && isEngineDown(stderr)) {
        throw new UserError(msg.engineDown(engineAddress(this.env), firstLine(stderr)));
      }
      return { code, stdout, stderr };
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
    }
  }
}

/** Runs a call and throws `<what> failed: \`docker a b\` exited with status N: <stderr line>` unless it succeeds. */
export async function dockerOk(
  docker: Docker,
  what: string,
  args: readonly string[],
  opts?: DockerCallOptions,
): Promise<DockerResult> {
  const r = await docker.call(args, opts);
  if (opts?.signal?.aborted) throw new UserError(msg.aborted(String(opts.signal.reason ?? "aborted")));
  if (r.code !== 0) {
    throw new UserError(msg.dockerFailed(what, args.slice(0, 2).join(" "), r.code, firstLine(r.stderr)));
  }
  return r;
}
