/**
 * Bounds a run as a whole and turns Ctrl-C into an orderly stop (spec §4.6). The first SIGINT or
 * SIGTERM, or the run time limit, aborts the current step: a build or pull is cancelled, a running
 * container is stopped (`docker stop`), and the run is then recorded as interrupted. A second
 * signal gets the default behaviour (the process dies).
 */
import { msg } from "./messages.ts";

export class RunGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly handlers: [NodeJS.Signals, () => void][] = [];
  private stopHook: (() => Promise<void>) | undefined;
  private unfollow: (() => void) | undefined;
  /** what the run is doing, for the time-limit message */
  phase = "start-up";
  /** the signal that stopped the run, if any */
  signal: NodeJS.Signals | undefined;
  reason: string | undefined;

  constructor(
    private readonly limitSeconds: number,
    private readonly warn: (line: string) => void,
    installSignals: boolean,
    /** a job's stop: its reason (a signal name) stops this run as that signal would */
    external?: AbortSignal,
  ) {
    if (external) {
      const follow = () => {
        const reason = String(external.reason ?? "stopped");
        if (reason === "SIGINT" || reason === "SIGTERM") this.signal = reason;
        this.stop(msg.signalReceived(reason), reason);
      };
      if (external.aborted) queueMicrotask(follow);
      else {
        external.addEventListener("abort", follow, { once: true });
        this.unfollow = () => external.removeEventListener("abort", follow);
      }
    }
    this.timer = setTimeout(() => this.stop(msg.runTimeLimit(limitSeconds, this.phase), "run time limit"), limitSeconds * 1000);
    if (installSignals) {
      for (const sig of ["SIGINT", "SIGTERM"] as const) {
        const handler = () => {
          this.removeSignals();
          this.signal = sig;
          this.stop(msg.signalReceived(sig), sig);
        };
        process.once(sig, handler);
        this.handlers.push([sig, handler]);
      }
    }
  }

  get abortSignal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  /** While a container runs, stopping means `docker stop` instead of killing a client. */
  onStop(hook: (() => Promise<void>) | undefined): void {
    this.stopHook = hook;
    if (hook && this.stopped) void hook();
  }

  private stop(warning: string, reason: string): void {
    if (this.stopped) return;
    this.warn(warning);
    this.reason = reason;
    this.controller.abort(reason);
    if (this.stopHook) void this.stopHook();
  }

  private removeSignals(): void {
    for (const [sig, handler] of this.handlers) process.removeListener(sig, handler);
    this.handlers.length = 0;
  }

  /** Exit status of an interrupted run: 128 + signal number, 124 for the time limit. */
  exitCode(): number | undefined {
    if (this.signal === "SIGINT") return 130;
    if (this.signal === "SIGTERM") return 143;
    if (this.reason) return 124;
    return undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.removeSignals();
    this.unfollow?.();
  }
}
