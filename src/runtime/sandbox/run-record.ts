/**
 * What is known about the run so far, and the two ways it ends: normally (`finish`) or by
 * SIGTERM/SIGINT (`interrupt`: kill every group and model's processes, write what is known,
 * exit 128+N). After an interrupt the main flow is parked at its next `gate` so nothing it does
 * races the interrupt's writes.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants } from "node:os";
import { type CheckRecord, notGraded, type PatchResult, renderResult, type RuntimeResult } from "../../formats/run/result.ts";
import { boundArchive } from "./archive-bound.ts";
import type { RuntimeConfig } from "../config.ts";
import { handBackTree, writeAtomic } from "../fs-util.ts";
import { type Owner, returnArchive } from "../privilege/lockdown.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import type { PluginRunner } from "../plugins/runner.ts";
import { stopAllGroups } from "../privilege/processes.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import type { Account } from "../privilege/users.ts";

export class RunRecord {
  phase = "set-up";
  plugins?: PluginRunner;
  archiveOwner?: Owner;
  archiveReturned = false;
  agentStartedAt?: number;
  patch?: PatchResult;
  /** Set once grading has its verdict: an interrupt after that (grading plugins) keeps it. */
  graded = false;
  finalPatch?: Uint8Array;
  checks: CheckRecord[] = [];
  runtime: RuntimeResult = { agent_duration: 0, agent_timeout: false, evaluator_timeout: false, agent_exit_code: null };
  private interrupted?: NodeJS.Signals;
  private readonly resultsOwner: Owner;

  constructor(
    private readonly cfg: RuntimeConfig,
    private readonly model: Account,
    private readonly runner: Account,
  ) {
    mkdirSync(cfg.results, { recursive: true, mode: 0o755 });
    const st = statSync(cfg.results);
    this.resultsOwner = { uid: st.uid, gid: st.gid };
  }

  install(): void {
    for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => void this.interrupt(sig));
  }

  /** Passes a phase's promise through, unless the run was interrupted (then never settles). */
  gate<T>(p: Promise<T>): Promise<T> {
    return p.then((v) => (this.interrupted ? new Promise<T>(() => {}) : v));
  }

  writeResult(): void {
    if (!this.patch) return;
    writeAtomic(join(this.cfg.results, "result.json"), renderResult(this.patch, this.runtime));
  }

  /** Results pushed home (a Swarm trial, SSE_UPLOAD_FILE): runs after the final writes, both ways a run ends. */
  pushHome?: () => Promise<unknown>;

  /** finish(), then the results pushed home when the run has an upload. */
  async end(): Promise<void> {
    this.finish();
    if (!this.interrupted) await this.pushHome?.();
  }

  /** Final writes: result.json again (a root plugin cannot change the grade), report, hand-over. */
  finish(): void {
    if (this.interrupted) return;
    this.writeResult();
    if (this.finalPatch) writeFileSync(join(this.cfg.results, "final.patch"), this.finalPatch, { mode: 0o644 });
    this.handOver();
  }

  private handOver(): void {
    try {
      this.plugins?.writeReport();
    } catch (e) {
      log("WARN", "Could not write the plugin report", { err: e instanceof Error ? e.message : String(e) });
    }
    try {
      // With an upload the results go with it: the archive gets the room they leave.
      boundArchive(this.cfg.archive, this.cfg.archiveBounds, this.cfg.results);
    } catch (e) {
      log("WARN", "Could not bound the archive", { err: e instanceof Error ? e.message : String(e) });
    }
    const { uid, gid } = this.resultsOwner;
    handBackTree(this.cfg.results, uid, gid);
    if (this.archiveOwner) handBackTree(this.cfg.archive, this.archiveOwner.uid, this.archiveOwner.gid);
  }

  private async interrupt(signal: NodeJS.Signals): Promise<void> {
    if (this.interrupted) return;
    this.interrupted = signal;
    log("WARN", "Interrupted; stopping every process", { signal, phase: this.phase });
    const known = [...this.checks]; // a check cut short by the interrupt has no verdict
    await stopAllGroups(this.cfg.graceMs);
    await this.plugins?.stopPending();
    for (const user of [this.model, this.runner]) if (user.uid !== 0) await killUserProcesses(user);
    if (this.archiveOwner && !this.archiveReturned) returnArchive(this.cfg, this.archiveOwner, this.model);
    if (this.agentStartedAt !== undefined && this.phase === "the agent phase") {
      this.runtime.agent_duration = Math.round((performance.now() - this.agentStartedAt) / 1000);
    }
    if (!this.graded) this.patch = notGraded("interrupted", msg.interrupted(signal, this.phase), known);
    try {
      this.writeResult();
      this.handOver();
    } finally {
      await this.pushHome?.().catch(() => {});
      process.exit(128 + (constants.signals[signal] ?? 15));
    }
  }
}
