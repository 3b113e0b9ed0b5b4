/**
 * Grading (docs/container-contract.md §5 steps 8–9): the verdict (a run that cannot be graded says
 * why), the agent's change captured and graded between the grading hooks, result.json written;
 * then the after-grading plugins, with the model's calls marked as theirs once nothing of the
 * agent's can run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { failedByAgent, notGraded, type PatchResult } from "../../formats/run/result.ts";
import { captureChange } from "../grading/change.ts";
import { grade } from "../grading/grade.ts";
import { workPaths } from "../grading/prepare.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import { modelForwarding, pluginModelKey, routeLaterCallsToPlugins } from "../relay/model-access.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import type { AgentPhaseEnd, AgentRun } from "./agent-phase.ts";
import type { Sandbox } from "./set-up.ts";

export async function gradingPhase(s: Sandbox, agent: AgentRun, end: AgentPhaseEnd): Promise<void> {
  const { record, pluginRunner: plugins } = s;
  // The grading hooks run whether or not the change can be graded.
  record.phase = "grading";
  let result = ungradable(s, agent, end);
  const patch = result ? undefined : await record.gate(captureFinal(s));
  if (!(patch instanceof Uint8Array)) result ??= patch;
  await record.gate(plugins.runBlocking("before-grading"));
  plugins.startOn("on-grading");
  if (patch instanceof Uint8Array) result = await gradeRun(s, patch);
  record.patch = result;
  record.graded = true;
  record.writeResult();
  await record.gate(plugins.awaitOn("on-grading", false));
}

/** Why the change is not graded at all, if it is not. */
function ungradable(s: Sandbox, agent: AgentRun, end: AgentPhaseEnd): PatchResult | undefined {
  if (agent.startFailure) return notGraded("infra", agent.startFailure);
  if (end.survivors.length > 0) {
    log("ERROR", "Failed to stop the agent's processes", { pids: end.survivors.join(",") });
    // Processes no SIGKILL stops are the agent's doing: its failure, not an ungraded run.
    return failedByAgent("agent_resources", msg.survivors(s.model.name, end.survivors), null);
  }
  if (end.runnerLeft.length > 0) return failedByAgent("agent_resources", msg.survivors(s.runner.name, end.runnerLeft), null);
  return undefined;
}

/** The agent's change, or the reason it cannot be had. */
async function captureFinal(s: Sandbox): Promise<Uint8Array | PatchResult> {
  const { cfg } = s;
  const paths = workPaths(cfg.work);
  try {
    const change = await captureChange({ prepared: s.prepared, tree: s.source, gitHome: paths.gitHome, stateDir: paths.state, indexName: "capture.index", maxFileBytes: cfg.maxFileBytes, timeoutMs: cfg.gradingTimeoutMs, bounds: cfg.changeBounds });
    if ("tooLarge" in change) {
      // The agent's doing, like a patch that does not apply: a failure, not an ungraded run.
      const big = change.tooLarge;
      const list = big.map((f) => `${f.path} (${f.bytes} bytes)`).join("\n");
      log("WARN", "Change too large to grade", { files: big.map((f) => f.path).join(",") });
      return failedByAgent("change_too_large", change.why, list);
    }
    s.record.finalPatch = change.patch;
    writeFileSync(join(cfg.results, "final.patch"), change.patch, { mode: 0o644 });
    return change.patch;
  } catch (e) {
    return notGraded("infra", `Could not capture the agent's change: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function gradeRun(s: Sandbox, patch: Uint8Array): Promise<PatchResult> {
  const { cfg, record } = s;
  log("INFO", "Grading start", { timeout_s: cfg.gradingTimeoutMs / 1000 });
  const g = await record.gate(
    grade({
      taskRoot: cfg.taskRoot,
      task: s.task,
      pristine: s.prepared.pristine,
      scratch: workPaths(cfg.work).scratch,
      results: cfg.results,
      runner: s.runner,
      patch,
      inherited: s.inherited,
      checkTimeoutMs: cfg.checkTimeoutMs,
      gradingTimeoutMs: cfg.gradingTimeoutMs,
      graceMs: cfg.graceMs,
      onCheck: (c) => record.checks.push(c),
    }),
  );
  record.runtime.evaluator_timeout = g.evaluatorTimeout;
  log("INFO", g.result.status === "passed" ? "Patch success" : g.result.status === "failed" ? "Patch failed" : "Not graded", { reason: g.result.error_msg ?? "" });
  return g.result;
}

/**
 * The after-grading plugins. The agent's code ran as the runner in grading: once neither user has
 * a process, only root's plugins can call the model, and the ledger marks their calls (docs/gateway.md).
 */
export async function afterGrading(s: Sandbox, end: AgentPhaseEnd): Promise<void> {
  const { record } = s;
  if (end.survivors.length === 0 && modelForwarding()) {
    const left = [...(await record.gate(killUserProcesses(s.runner))), ...(await record.gate(killUserProcesses(s.model)))];
    // The plugins' own key (the plugin socket refuses the agent's): what they inherit from now on.
    if (left.length === 0 && routeLaterCallsToPlugins() && pluginModelKey()) s.inherited.SSE_API_KEY = pluginModelKey();
  }
  await record.gate(s.pluginRunner.runBlocking("after-grading"));
}
