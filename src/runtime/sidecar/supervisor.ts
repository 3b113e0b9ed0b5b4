/**
 * `ssebench-entrypoint sidecar-agent [--] <agent argv…>`: the agent's side of sidecar mode
 * (docs/container-contract.md §13), in the sidecar container as the run's own uid, with no
 * capability. It connects to the task's entrypoint through the socket folder, takes the start
 * message, relays 127.0.0.1:3000 (the tool API) and :4000 (the model) of its own network
 * namespace to the folder's sockets, writes the task brief, runs the agent (own process group,
 * output to log.sock) under the time limit, and reports how it ended. Nothing here is trusted by
 * the task's side beyond the exit status: the agent runs as the same user and could stop it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { parseSidecarLine, SIDECAR_SOCKETS, type SidecarReport, type SidecarStart } from "../../contract/sidecar.ts";
import { ExitCode, UserError } from "../../errors.ts";
import { relayTcp } from "../relay/socket-relay.ts";
import { sidecarMsg } from "./messages.ts";

type Env = Record<string, string | undefined>;

/** The task's sockets exist before the host starts the sidecar; this only rides out a slow start. */
const CONNECT_WAIT_MS = 30_000;
const CONNECT_RETRY_MS = 100;
/** After the agent's leader exited: how long its output may still arrive before the report. */
const OUTPUT_SETTLE_MS = 1000;

export async function runSidecarAgent(args: string[], env: Env, dir: string): Promise<number> {
  const argv = args[0] === "--" ? args.slice(1) : args;
  if (argv.length === 0 || (argv[0] as string).startsWith("-")) throw new UserError(sidecarMsg.usage(), ExitCode.usage);
  const controlPath = join(dir, SIDECAR_SOCKETS.control);
  const control = await connectUnix(controlPath);
  const lines = lineReader(control);
  const start = parseSidecarLine<SidecarStart>((await lines()) ?? "", ["start"]);
  if (!start) throw new UserError(sidecarMsg.noStart(controlPath, "the connection ended without one"));
  const report = (r: SidecarReport) => void control.write(`${JSON.stringify(r)}\n`);
  const output = await connectUnix(join(dir, SIDECAR_SOCKETS.log));
  const childEnv = agentEnv(env, start, dir);
  const command = argv[0] as string;
  const exe = command.includes("/") ? command : Bun.which(command, { PATH: childEnv.PATH ?? "" });
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    if (!exe) throw new Error(sidecarMsg.notFound(command));
    proc = Bun.spawn([exe, ...argv.slice(1)], { cwd: start.source, env: childEnv, detached: true, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch (e) {
    report({ type: "start_error", error: e instanceof Error ? e.message : String(e) });
    await ended(control);
    return 1;
  }
  report({ type: "started" });
  const pumped = Promise.all([pump(proc.stdout, output), pump(proc.stderr, output)]);
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    void stopGroup(proc, start.grace_ms);
  }, start.timeout_ms);
  await proc.exited;
  clearTimeout(limit);
  // Background children go with their leader, as in a sandbox; the task's side kills the rest.
  signalGroup(proc.pid, "SIGKILL");
  await Promise.race([pumped, Bun.sleep(OUTPUT_SETTLE_MS)]);
  const code = proc.exitCode ?? 128 + (constants.signals[proc.signalCode as keyof typeof constants.signals] ?? 0);
  report({ type: "exit", code, timed_out: timedOut });
  output.end();
  // The task's side ends this process with every other of the agent's user; a gone entrypoint ends the wait.
  await ended(control);
  return timedOut ? 124 : code;
}

/**
 * The agent's environment: this container's own (the agent image's variables), the start message's,
 * then what this side adds: its own home, the brief's path and the loopback URLs it relays.
 */
function agentEnv(env: Env, start: SidecarStart, dir: string): Record<string, string> {
  const own = mkdtempSync(join(tmpdir(), "ssebench-agent-"));
  const home = join(own, "home");
  mkdirSync(home, { mode: 0o700 });
  const taskFile = join(own, "task.json");
  writeFileSync(taskFile, start.brief, { mode: 0o644 });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith("SSE_")) out[k] = v;
  Object.assign(out, start.env, { HOME: home, USER: "model", LOGNAME: "model", SSE_TASK_FILE: taskFile });
  const tools = relayTcp("127.0.0.1", start.tool_port, () => join(dir, SIDECAR_SOCKETS.tool));
  out.SSE_TOOL_API = `http://127.0.0.1:${tools.port}`;
  out.SSE_MCP_URL = `${out.SSE_TOOL_API}/mcp`;
  if (start.model_port !== null) {
    const model = relayTcp("127.0.0.1", start.model_port, () => join(dir, SIDECAR_SOCKETS.model));
    out.SSE_BASE_URL = `http://127.0.0.1:${model.port}`;
  }
  return out;
}

async function connectUnix(path: string): Promise<Socket> {
  const until = Date.now() + CONNECT_WAIT_MS;
  for (;;) {
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const s = connect(path, () => resolve(s));
        s.once("error", reject);
      });
    } catch (e) {
      if (Date.now() >= until) throw new UserError(sidecarMsg.noStart(path, e instanceof Error ? e.message : String(e)));
      await Bun.sleep(CONNECT_RETRY_MS);
    }
  }
}

/** Reads the socket line by line; undefined once it has ended. */
function lineReader(socket: Socket): () => Promise<string | undefined> {
  let buffered = "";
  let done = false;
  let waiting: (() => void) | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    waiting?.();
  });
  const end = () => {
    done = true;
    waiting?.();
  };
  socket.on("end", end);
  socket.on("close", end);
  socket.on("error", end);
  return async () => {
    for (;;) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        return line;
      }
      if (done) return undefined;
      await new Promise<void>((r) => (waiting = r));
      waiting = undefined;
    }
  };
}

function ended(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => socket.once("close", () => resolve()));
}

/** The agent's output into the log socket, at the pace the socket takes it. */
async function pump(stream: ReadableStream<Uint8Array>, to: Socket): Promise<void> {
  try {
    for await (const chunk of stream) {
      if (to.destroyed) continue;
      if (!to.write(chunk)) await new Promise<void>((r) => (to.once("drain", r), to.once("close", r)));
    }
  } catch {
    // a broken pipe ends the output like EOF
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone
  }
}

async function stopGroup(proc: Bun.Subprocess, graceMs: number): Promise<void> {
  signalGroup(proc.pid, "SIGTERM");
  await Promise.race([proc.exited, Bun.sleep(graceMs)]);
  signalGroup(proc.pid, "SIGKILL");
}
