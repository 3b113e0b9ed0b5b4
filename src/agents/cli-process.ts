/**
 * Runs an agent CLI for a driver: its stdout is read line by line (each line also appended to the
 * raw stream file beside dialog.jsonl), its stderr goes to the driver's own (agent.log). A TERM to
 * the driver (the agent's time limit) is passed on, and the driver reports the timeout.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { feedPipe, osPipe } from "./os-pipe.ts";

export interface CliRun {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  stdin?: string;
  rawFile: string;
  onLine: (line: string) => void;
}

export interface CliExit {
  code: number;
  /** whether the driver was told to stop (TERM/INT) before the CLI ended */
  stopped: boolean;
}

export async function runCli(run: CliRun): Promise<CliExit> {
  const raw = openSync(run.rawFile, "w", 0o644);
  let stopped = false;
  // The prompt comes through a pipe, as `printf … | cli` from a shell (os-pipe.ts).
  const pipe = run.stdin === undefined ? undefined : osPipe();
  const proc = Bun.spawn(run.argv, { cwd: run.cwd, env: run.env, stdin: pipe ? pipe[0] : "ignore", stdout: "pipe", stderr: "inherit" });
  let fed: Promise<void> | undefined;
  if (pipe && run.stdin !== undefined) {
    closeSync(pipe[0]);
    fed = feedPipe(pipe[1], run.stdin);
  }
  const stop = () => {
    stopped = true;
    proc.kill("SIGTERM");
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    writeSync(raw, chunk);
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) run.onLine(line);
  }
  if (pending.trim()) run.onLine(pending);
  const code = await proc.exited;
  // The write end is closed once the reader is gone; not waited for long when a child of the CLI
  // still holds the pipe open without reading.
  if (fed) await Promise.race([fed, Bun.sleep(1000)]);
  closeSync(raw);
  process.off("SIGTERM", stop);
  process.off("SIGINT", stop);
  return { code, stopped };
}
