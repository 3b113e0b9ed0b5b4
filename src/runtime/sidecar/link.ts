/**
 * The task container's end of sidecar mode (docs/container-contract.md §13): in the socket folder
 * shared with the sidecar it listens for the tool API (tool.sock), the run's model (model.sock),
 * the agent's output (log.sock, into the bounded agent.log) and the sidecar's supervisor
 * (control.sock). Each socket belongs to the agent's user alone (the folder can be crossed, not
 * listed); control.sock is made last, so the host starts the sidecar once all of them are there.
 * Only the first connection to control.sock and to log.sock counts: the supervisor makes both
 * before it starts the agent, so whatever the agent opens later is closed at once.
 */
import { chmodSync, chownSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseSidecarLine, SIDECAR_SOCKETS, type SidecarReport, type SidecarStart } from "../../contract/sidecar.ts";
import { LogSink } from "../privilege/log-sink.ts";
import type { Account } from "../privilege/users.ts";
import { relayUnix } from "../relay/socket-relay.ts";

/** A report line longer than this is not the supervisor's: the connection is dropped. */
const MAX_LINE = 64 * 1024;
/** How long agent.log may take to receive what the killed sidecar had written. */
const LOG_SETTLE_MS = 2000;

export interface LinkOptions {
  dir: string;
  agent: Account;
  /** host:port of the tool API in this container */
  toolTarget: string;
  /** the gateway's socket for the agent ("" when the run has no model) */
  modelTarget: string;
  agentLog: string;
}

/** The supervisor's connection: the start message down, its reports up. */
export interface Supervisor {
  send(start: SidecarStart): void;
  /** the next report; undefined once the connection is closed (or sent something else) */
  next(): Promise<SidecarReport | undefined>;
}

export class SidecarLink {
  private readonly relays: { stop: (closeActive?: boolean) => void }[] = [];
  private readonly servers: Server[] = [];
  private readonly sockets: Socket[] = [];
  private readonly sink: LogSink;
  private logConnected = false;
  private supervisor: Supervisor | undefined;
  private waiting: ((s: Supervisor | string) => void) | undefined;
  private goneReason: string | undefined;

  private constructor(private readonly o: LinkOptions) {
    this.sink = new LogSink(o.agentLog);
  }

  static async open(o: LinkOptions): Promise<SidecarLink> {
    const link = new SidecarLink(o);
    try {
      chmodSync(o.dir, 0o711);
      link.relay("tool", o.toolTarget);
      if (o.modelTarget) link.relay("model", o.modelTarget);
      await link.listen("log", (socket) => link.onLog(socket));
      await link.listen("control", (socket) => link.onControl(socket));
      return link;
    } catch (e) {
      await link.close();
      throw e;
    }
  }

  private socketPath(name: keyof typeof SIDECAR_SOCKETS): string {
    const path = join(this.o.dir, SIDECAR_SOCKETS[name]);
    rmSync(path, { force: true });
    return path;
  }

  /** Once made: the agent's user alone may connect. */
  private own(path: string): void {
    chownSync(path, this.o.agent.uid, this.o.agent.gid);
    chmodSync(path, 0o600);
  }

  private relay(name: "tool" | "model", target: string): void {
    const path = this.socketPath(name);
    this.relays.push(relayUnix(path, () => target));
    this.own(path);
  }

  private listen(name: "log" | "control", onConnection: (socket: Socket) => void): Promise<void> {
    const path = this.socketPath(name);
    const server = createServer((socket) => {
      this.sockets.push(socket);
      onConnection(socket);
    });
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        try {
          this.own(path);
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  private onLog(socket: Socket): void {
    if (this.logConnected) return void socket.destroy();
    this.logConnected = true;
    this.sink.drain(Readable.toWeb(socket) as ReadableStream<Uint8Array>);
  }

  private onControl(socket: Socket): void {
    if (this.supervisor || this.goneReason) return void socket.destroy();
    this.supervisor = controlChannel(socket);
    this.waiting?.(this.supervisor);
  }

  /** The supervisor once it connects; a reason when it does not within `waitMs` or the sidecar is gone. */
  connected(waitMs: number, tooLate: string): Promise<Supervisor | string> {
    if (this.supervisor) return Promise.resolve(this.supervisor);
    if (this.goneReason) return Promise.resolve(this.goneReason);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(tooLate), waitMs);
      const finish = (s: Supervisor | string) => {
        clearTimeout(timer);
        this.waiting = undefined;
        if (typeof s === "string") this.goneReason = s;
        resolve(s);
      };
      this.waiting = finish;
    });
  }

  /** The host says the sidecar's container ended: a supervisor that has not connected never will. */
  sidecarGone(reason: string): void {
    if (this.supervisor) return;
    this.goneReason = reason;
    this.waiting?.(reason);
  }

  /** Stops listening and drops every connection; agent.log is complete once this resolves. */
  async close(): Promise<void> {
    for (const r of this.relays) r.stop(true);
    for (const s of this.servers) s.close();
    let timer: Timer | undefined;
    if (!this.logConnected) this.sink.close();
    await Promise.race([this.sink.done, new Promise((r) => (timer = setTimeout(r, LOG_SETTLE_MS)))]);
    clearTimeout(timer);
    for (const s of this.sockets) s.destroy();
    await this.sink.done;
    for (const name of Object.values(SIDECAR_SOCKETS)) rmSync(join(this.o.dir, name), { force: true });
  }
}

const REPORTS = ["started", "exit", "start_error"] as const;

/** JSON lines both ways over the supervisor's connection; anything malformed ends it. */
function controlChannel(socket: Socket): Supervisor {
  const queue: (SidecarReport | undefined)[] = [];
  const readers: ((r: SidecarReport | undefined) => void)[] = [];
  let buffered = "";
  let ended = false;
  const push = (r: SidecarReport | undefined) => {
    if (ended) return;
    if (r === undefined) ended = true;
    const reader = readers.shift();
    if (reader) reader(r);
    else queue.push(r);
  };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const report = parseSidecarLine<SidecarReport>(buffered.slice(0, nl), REPORTS);
      buffered = buffered.slice(nl + 1);
      if (!report) return void (socket.destroy(), push(undefined));
      push(report);
      nl = buffered.indexOf("\n");
    }
    if (buffered.length > MAX_LINE) return void (socket.destroy(), push(undefined));
  });
  socket.on("close", () => push(undefined));
  socket.on("error", () => push(undefined));
  return {
    send: (start) => void socket.write(`${JSON.stringify(start)}\n`),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => readers.push(r))),
  };
}
