/**
 * Sandbox mode (docs/container-contract.md §5): set-up → agent phase with its hooks → end of the
 * agent phase → grading with its hooks → result.json, plugin report, hand-over → agent's status.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_DRIVER, REFERENCE_AGENT, TASK_BRIEF_FILE } from "../contract/agent.ts";
import type { AgentEnv } from "../contract/env.ts";
import { UserError } from "../errors.ts";
import { selectPlugins } from "../formats/run/plugins.ts";
import { failedByAgent, notGraded, type PatchResult } from "../formats/run/result.ts";
import { agentExtraNames, allowedInherited, childEnv, LLM_VARS } from "./privilege/child-env.ts";
import { reserveForGrader } from "./privilege/child-limits.ts";
import { setMaxLogBytes } from "./privilege/log-sink.ts";
import { readConfig } from "./config.ts";
import { captureChange } from "./grading/change.ts";
import { grade } from "./grading/grade.ts";
import { clearLeftovers, lockDown, type Owner, returnArchive } from "./privilege/lockdown.ts";
import { configureLog, log } from "./log.ts";
import { msg } from "./messages.ts";
import { modelForwarding, openModelAccess, pluginModelKey, routeLaterCallsToPlugins } from "./model-access.ts";
import { loadPlugins } from "../contract/plugins-file.ts";
import { PluginRunner } from "./plugin-runner.ts";
import { type Prepared, prepare, workPaths } from "./grading/prepare.ts";
import { start } from "./privilege/processes.ts";
import { RunRecord } from "./run-record.ts";
import { readTaskConfig, agentTaskBrief } from "./task.ts";
import { openToolApi, type OpenToolApi, parseDifficulty, toolPort } from "./tool-api/index.ts";
import { killUserProcesses } from "./privilege/user-processes.ts";
import { readUploadConfig } from "./upload-config.ts";
import { lookupUser, renumberUsers, reown } from "./privilege/users.ts";

export async function runSandbox(agentArgv: string[], env: Record<string, string | undefined>): Promise<number> {
  // Bun before 1.4 ignored spawn's uid/gid without an error: the agent would have run as root.
  if (!Bun.semver.satisfies(Bun.version, ">=1.4.0")) throw new UserError(msg.oldBun(Bun.version));
  const cfg = readConfig(env, true);
  const upload = readUploadConfig(env);
  const level = parseDifficulty(env.SSE_DIFFICULTY);
  const port = toolPort(env.SSE_TOOL_PORT);
  configureLog({ debug: cfg.debug });
  // Before anything else: nothing may run as the image's shared uids.
  const renumbered = renumberUsers(cfg.etc, cfg.runUids);
  const cacheDir = workPaths(cfg.work).cache;
  const task = await readTaskConfig(cfg.taskRoot, cacheDir);
  const source = cfg.sourceOverride ?? task.source;
  const all = await loadPlugins(cfg.pluginsDir, cacheDir);
  const { selected, unknown } = selectPlugins(all, cfg.pluginSelection);
  for (const name of unknown) log("WARN", "Requested plugin is not declared in plugins.yaml", { plugin: name });
  if (selected.length > 0) log("INFO", "Plugins enabled", { plugins: selected.map((p) => p.name).join(",") });
  log("DEBUG", "Configuration read");
  const model = lookupUser(cfg.modelUser, join(cfg.etc, "passwd"));
  const runner = lookupUser(cfg.runnerUser, join(cfg.etc, "passwd"));
  if (model.uid === 0 || runner.uid === 0) throw new UserError(msg.noUser(model.uid === 0 ? cfg.modelUser : cfg.runnerUser));
  reserveForGrader([{ user: model, nproc: cfg.modelNproc }, { user: runner, nproc: cfg.runnerNproc }]);
  setMaxLogBytes(cfg.maxLogBytes);

  const record = new RunRecord(cfg, model, runner);
  record.install();
  if (upload) {
    record.pushHome = async () => {
      // Nothing of the agent's may run while its results are packed.
      for (const user of [model, runner]) await killUserProcesses(user);
      const { uploadResults } = await import("./results-upload.ts");
      return uploadResults(cfg.results, cfg.archive, upload);
    };
  }
  configureLog({ debug: cfg.debug, file: join(cfg.results, "entrypoint.log") });
  let prepared: Prepared;
  let archiveOwner: Owner;
  try {
    prepared = prepare(cfg.work, source, model, env);
    reown(renumbered, model.name, [source, model.home]);
    log("DEBUG", "Prepared");
    archiveOwner = lockDown(cfg, task, model);
    log("DEBUG", "Locked down");
    // The run's gateway socket and key (mounted by ssebench run) → SSE_BASE_URL, SSE_API_KEY.
    Object.assign(env, openModelAccess(env));
  } catch (e) {
    // The results folder exists by now: say there why nothing was graded.
    record.patch = notGraded("infra", e instanceof Error ? e.message : String(e));
    await record.end();
    throw e;
  }
  record.archiveOwner = archiveOwner;
  const taskFile = join(cfg.work, TASK_BRIEF_FILE);
  writeFileSync(taskFile, agentTaskBrief(task, cfg.taskRoot), { mode: 0o644 });

  // Children inherit only the image's variables (recorded by prepare), never the run's extras.
  const inherited = allowedInherited(env, prepared.env);
  const plugins = new PluginRunner(
    { pluginsDir: cfg.pluginsDir, work: cfg.work, archive: cfg.archive, results: cfg.results, taskRoot: cfg.taskRoot, source, model, minuteMs: cfg.pluginMinuteMs, graceMs: cfg.graceMs, inherited },
    selected,
  );
  record.plugins = plugins;
  let tools: OpenToolApi;
  try {
    tools = openToolApi({ level, port, task, taskRoot: cfg.taskRoot, prepared, source, work: cfg.work, results: cfg.results, taskFile, runner, inherited, checkTimeoutMs: cfg.checkTimeoutMs, graceMs: cfg.graceMs, maxFileBytes: cfg.maxFileBytes });
  } catch (e) {
    record.patch = notGraded("infra", e instanceof Error ? e.message : String(e));
    await record.end();
    throw e;
  }
  log("INFO", "Tool API listening", { url: tools.url, difficulty: level.n });

  // Agent phase
  record.phase = "the agent phase";
  await record.gate(plugins.runBlocking("before-agent"));
  plugins.startOn("on-agent");
  const agentExtras = agentExtraNames(env);
  const agentEnv = childEnv(allowedInherited(env, prepared.env, agentExtras), model, ["SSE_DIFFICULTY", ...LLM_VARS, ...agentExtras], {
    SSE_ARCHIVE: cfg.archive,
    SSE_SOURCE: source,
    SSE_TASK_FILE: taskFile,
    SSE_TOOL_API: tools.url,
    SSE_MCP_URL: `${tools.url}/mcp`,
  } satisfies AgentEnv);
  let argv = agentArgv;
  let stdin: Uint8Array | undefined;
  if (agentArgv.length === 1 && agentArgv[0] === REFERENCE_AGENT) {
    argv = ["git", "apply", "--binary", "--whitespace=nowarn", "-"];
    try {
      stdin = readFileSync(cfg.referencePatch);
    } catch {
      argv = ["/bin/sh", "-c", `echo "no reference patch at $0" >&2; exit 1`, cfg.referencePatch];
    }
  }
  if (agentArgv.length === 2 && agentArgv[0] === AGENT_DRIVER) {
    // The driver is this binary, run as the agent user like any agent command.
    argv = [process.execPath, "agent-driver", agentArgv[1] as string];
  }
  log("INFO", "Agent command", { argv: JSON.stringify(agentArgv), timeout_s: cfg.agentTimeoutMs / 1000 });
  const agent = start({ argv, cwd: source, env: agentEnv, user: model, log: join(cfg.results, "agent.log"), stdin }, cfg.agentTimeoutMs, cfg.graceMs);
  record.agentStartedAt = agent.startedAt;
  tools.warm();
  const outcome = await record.gate(agent.done);
  await record.gate(tools.endPhase());
  record.runtime.agent_duration = Math.round(outcome.durationMs / 1000);
  record.runtime.agent_timeout = outcome.timedOut;
  if (outcome.timedOut) log("WARN", "Agent execution timed out");
  let startFailure: string | undefined;
  if (outcome.exitCode === null) {
    startFailure = `Failed to start agent: ${outcome.startError}`;
    log("ERROR", "Failed to start agent", { err: outcome.startError });
  }
  const status = outcome.timedOut ? 124 : (outcome.exitCode ?? 1);
  record.runtime.agent_exit_code = outcome.exitCode === null ? null : status;
  log("INFO", "Agent finished", { status, seconds: record.runtime.agent_duration });

  // End of the agent phase
  await record.gate(plugins.awaitOn("on-agent", true));
  let survivors = await record.gate(killUserProcesses(model));
  await record.gate(plugins.runBlocking("after-agent"));
  survivors = [...survivors, ...(await record.gate(killUserProcesses(model)))];
  const runnerLeft = await record.gate(tools.close());
  returnArchive(cfg, archiveOwner, model);
  record.archiveReturned = true;
  clearLeftovers(model, [source, cfg.archive, model.home]);

  // Grading: the grading hooks run whether or not the change can be graded.
  record.phase = "grading";
  let result: PatchResult | undefined;
  if (startFailure) result = notGraded("infra", startFailure);
  else if (survivors.length > 0) {
    log("ERROR", "Failed to stop the agent's processes", { pids: survivors.join(",") });
    // Processes no SIGKILL stops are the agent's doing: its failure, not an ungraded run.
    result = failedByAgent("agent_resources", msg.survivors(model.name, survivors), null);
  } else if (runnerLeft.length > 0) result = failedByAgent("agent_resources", msg.survivors(runner.name, runnerLeft), null);
  const patch = result ? undefined : await record.gate(captureFinal());
  if (!(patch instanceof Uint8Array)) result ??= patch;
  await record.gate(plugins.runBlocking("before-grading"));
  plugins.startOn("on-grading");
  if (patch instanceof Uint8Array) result = await gradeRun(patch);
  record.patch = result;
  record.graded = true;
  record.writeResult();
  await record.gate(plugins.awaitOn("on-grading", false));
  // The agent's code ran as the runner in grading: once neither user has a process, only root's
  // after-grading plugins can call the model, and the ledger marks their calls (docs/gateway.md).
  if (survivors.length === 0 && modelForwarding()) {
    const left = [...(await record.gate(killUserProcesses(runner))), ...(await record.gate(killUserProcesses(model)))];
    // The plugins' own key (the plugin socket refuses the agent's): what they inherit from now on.
    if (left.length === 0 && routeLaterCallsToPlugins() && pluginModelKey()) inherited.SSE_API_KEY = pluginModelKey();
  }
  await record.gate(plugins.runBlocking("after-grading"));
  await record.end();
  return status;

  /** The agent's change, or the reason it cannot be had. */
  async function captureFinal(): Promise<Uint8Array | PatchResult> {
    const paths = workPaths(cfg.work);
    try {
      const change = await captureChange({ prepared, tree: source, gitHome: paths.gitHome, stateDir: paths.state, indexName: "capture.index", maxFileBytes: cfg.maxFileBytes, timeoutMs: cfg.gradingTimeoutMs, bounds: cfg.changeBounds });
      if ("tooLarge" in change) {
        // The agent's doing, like a patch that does not apply: a failure, not an ungraded run.
        const big = change.tooLarge;
        const list = big.map((f) => `${f.path} (${f.bytes} bytes)`).join("\n");
        log("WARN", "Change too large to grade", { files: big.map((f) => f.path).join(",") });
        return failedByAgent("change_too_large", change.why, list);
      }
      record.finalPatch = change.patch;
      writeFileSync(join(cfg.results, "final.patch"), change.patch, { mode: 0o644 });
      return change.patch;
    } catch (e) {
      return notGraded("infra", `Could not capture the agent's change: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async function gradeRun(patch: Uint8Array): Promise<PatchResult> {
    const paths = workPaths(cfg.work);
    log("INFO", "Grading start", { timeout_s: cfg.gradingTimeoutMs / 1000 });
    const g = await record.gate(
      grade({
        taskRoot: cfg.taskRoot,
        task,
        pristine: prepared.pristine,
        scratch: paths.scratch,
        results: cfg.results,
        runner,
        patch,
        inherited,
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
}
