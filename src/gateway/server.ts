/**
 * The gateway as a process serves it: models loaded once, per-run keys, and listeners. A run gets
 * its own Unix socket (bind-mounted into its container), which answers that run's key only; the
 * standalone `gateway serve` listens on TCP for every key it issued. On TCP a connection may idle
 * `limits.idleSeconds` while its request arrives (stalled requests must not hold the process's file
 * descriptors); once a call's body is in, the app lifts that for the call (a model may pause a
 * stream for minutes) and the call's own bounds apply (limits.ts). On a Unix socket Bun cannot lift
 * it per call (server.timeout has no effect there, Bun 1.4.5), so it is 0 and the body's deadline
 * and the run's cap on calls in flight bound a stalled request; the entrypoint's forwarder, the
 * only way to the socket, caps its connections.
 */
import { chmodSync, rmSync } from "node:fs";
import type { Server } from "bun";
import { createGatewayApp, type Serving } from "./app.ts";
import { KeyRing, sameKey, type RunKey, type RunTotals, type ServedModel } from "./keys.ts";
import { Ledger } from "./ledger.ts";
import { DEFAULT_LIMITS, type GatewayLimits } from "./limits.ts";
import { msg } from "./messages.ts";
import type { LoadedModel } from "./models.ts";
import { scriptedUpstream } from "./scripted/provider.ts";

export function servedModel(loaded: LoadedModel): ServedModel {
  const upstream = loaded.script ? scriptedUpstream(loaded.script, loaded.config.name) : (request: Request) => fetch(request);
  return { config: loaded.config, key: loaded.key, upstream };
}

export interface RunAccess {
  run: RunKey;
  /** stops the run's socket, revokes its key and returns its totals */
  close: () => Promise<RunTotals>;
}

export interface GatewayOptions {
  limits?: Partial<GatewayLimits>;
  /** where a dropped connection's line goes (default: stderr) */
  log?: (line: string) => void;
  /** the first call of a run that the upstream failed, as one line (default: the log) */
  upstreamError?: (run: RunKey, line: string) => void;
}

export class Gateway {
  readonly keys = new KeyRing();
  readonly limits: GatewayLimits;
  private readonly serving: Omit<Serving, "lookup" | "caller">;
  private readonly reported = new Set<RunKey>();

  constructor(options: GatewayOptions = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    const report = options.upstreamError ?? ((_run: RunKey, line: string) => log(line));
    const upstreamFailed = (run: RunKey, detail: string) => {
      if (this.reported.has(run)) return;
      this.reported.add(run);
      report(run, msg.upstreamError(run.runId, run.model.config.name, detail));
    };
    this.serving = { limits: this.limits, log, upstreamFailed };
  }

  /** A key for one run; its calls are written to `<ledgerDir>/model-calls.jsonl` when given. */
  issue(runId: string, model: ServedModel, budget?: number, ledgerDir?: string): RunKey {
    return this.keys.issue(runId, model, budget, ledgerDir ? new Ledger(ledgerDir) : undefined);
  }

  /**
   * Serves one run on a Unix socket that answers its key only, and, with `pluginSocketPath`, on a
   * second one whose calls the ledger marks as plugin calls (the entrypoint sends grading-phase
   * calls there, once every process of the agent's user is gone). With `pluginKey`, the plugin
   * socket answers that key only, not the agent's: a Swarm trial's relay exposes it over the
   * trial's network, where the agent can connect too.
   */
  serveRun(run: RunKey, socketPath: string, pluginSocketPath?: string, pluginKey?: string): RunAccess {
    const lookupFor = (accepted: string) => (key: string) => (sameKey(key, accepted) ? this.keys.get(run.key) : undefined);
    const sockets: [string, "agent" | "plugin"][] = [[socketPath, "agent"]];
    if (pluginSocketPath) sockets.push([pluginSocketPath, "plugin"]);
    const servers = sockets.map(([path, caller]) => {
      rmSync(path, { force: true });
      const app = createGatewayApp(lookupFor(caller === "plugin" && pluginKey ? pluginKey : run.key), caller, this.serving);
      // bun-types list idleTimeout for TCP servers only; Bun applies it to Unix sockets too (tested).
      const server = Bun.serve({ unix: path, idleTimeout: 0, fetch: app.fetch } as unknown as Parameters<typeof Bun.serve>[0]);
      // The forwarder in the container runs as root; the agent reaches the gateway through it.
      chmodSync(path, 0o666);
      return server;
    });
    return {
      run,
      close: async () => {
        this.keys.revoke(run.key);
        await Promise.all(servers.map((s) => s.stop(true)));
        for (const [path] of sockets) rmSync(path, { force: true });
        await this.settleAll(run);
        this.reported.delete(run);
        await run.ledger?.flush();
        return run.totals;
      },
    };
  }

  /**
   * Waits for the run's calls in flight to be settled: a call its client left is read on to its
   * usage for at most `closeGraceMs` more, then stopped and charged its reservation, so the totals
   * and the ledger are whole when the run records them.
   */
  async settleAll(run: RunKey): Promise<void> {
    const settled = () => Promise.all([...run.active].map((a) => a.settled));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.limits.closeGraceMs);
    });
    await Promise.race([settled(), grace]);
    clearTimeout(timer);
    for (const a of run.active) a.stop();
    await settled();
  }

  /** Serves every issued key on TCP. */
  serveTcp(hostname: string, port: number): Server<undefined> {
    const app = createGatewayApp((key) => this.keys.get(key), "agent", this.serving);
    return Bun.serve({ hostname, port, idleTimeout: this.limits.idleSeconds, fetch: app.fetch });
  }
}
