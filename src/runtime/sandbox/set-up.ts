/**
 * The sandbox's set-up (docs/container-contract.md §5 steps 1–4): settings, the run's own uids,
 * task and plugins read, then the run opened: results folder and interrupt handling, the source
 * prepared, the lock-down, the model forwarder, the task brief, the plugin runner, the tool API.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TASK_BRIEF_FILE } from "../../contract/agent.ts";
import { loadPlugins } from "../../contract/plugins-file.ts";
import { UserError } from "../../errors.ts";
import { type PluginEntry, selectPlugins } from "../../formats/run/plugins.ts";
import { notGraded } from "../../formats/run/result.ts";
import { type RuntimeConfig, readConfig } from "../config.ts";
import { type Prepared, prepare, workPaths } from "../grading/prepare.ts";
import { configureLog, log } from "../log.ts";
import { msg } from "../messages.ts";
import { openModelAccess } from "../relay/model-access.ts";
import { PluginRunner } from "../plugins/runner.ts";
import { allowedInherited } from "../privilege/child-env.ts";
import { reserveForGrader } from "../privilege/child-limits.ts";
import { lockDown, type Owner } from "../privilege/lockdown.ts";
import { setMaxLogBytes } from "../privilege/log-sink.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import { type Account, lookupUser, type Renumbered, renumberUsers, reown } from "../privilege/users.ts";
import { agentTaskBrief, readTaskConfig, type TaskConfig } from "../task.ts";
import { openToolApi, type OpenToolApi, parseDifficulty, toolPort } from "../tool-api/index.ts";
import type { Level } from "../tool-api/levels.ts";
import { type UploadConfig, readUploadConfig } from "../relay/upload-config.ts";
import { RunRecord } from "./run-record.ts";

type Env = Record<string, string | undefined>;

/** What set-up reads before anything is written: the settings, users, task and plugins of the run. */
interface Settings {
  cfg: RuntimeConfig;
  upload: UploadConfig | undefined;
  level: Level;
  port: number;
  renumbered: Renumbered[];
  task: TaskConfig;
  source: string;
  plugins: PluginEntry[];
  model: Account;
  runner: Account;
}

/** What the phases share once the run is open. */
export interface Sandbox extends Settings {
  env: Env;
  record: RunRecord;
  prepared: Prepared;
  /** the archive's owner before the agent phase lent it to the agent's user */
  archiveOwner: Owner;
  taskFile: string;
  /** What any child may inherit: the image's variables and the SSE_ ones (each role picks its own). */
  inherited: Env;
  pluginRunner: PluginRunner;
  tools: OpenToolApi;
}

/** `plugins: false`: none runs whatever SSE_PLUGINS says (sidecar mode has no plugins). */
export async function setUp(env: Env, opts: { plugins: boolean } = { plugins: true }): Promise<Sandbox> {
  const settings = await readSettings(env, opts.plugins);
  return openRun(env, settings);
}

async function readSettings(env: Env, withPlugins: boolean): Promise<Settings> {
  // Bun before 1.4 ignored spawn's uid/gid without an error: the agent would have run as root.
  if (!Bun.semver.satisfies(Bun.version, ">=1.4.0")) throw new UserError(msg.oldBun(Bun.version));
  const cfg = readConfig(env, true);
  const upload = readUploadConfig(cfg.upload);
  const level = parseDifficulty(cfg.difficulty);
  const port = toolPort(cfg.toolPort);
  configureLog({ debug: cfg.debug });
  // Before anything else: nothing may run as the image's shared uids.
  const renumbered = renumberUsers(cfg.etc, cfg.runUids);
  const cacheDir = workPaths(cfg.work).cache;
  const task = await readTaskConfig(cfg.taskRoot, cacheDir);
  const source = cfg.sourceOverride ?? task.source;
  const all = await loadPlugins(cfg.pluginsDir, cacheDir);
  const { selected, unknown } = selectPlugins(all, withPlugins ? cfg.pluginSelection : []);
  for (const name of unknown) log("WARN", "Requested plugin is not declared in plugins.yaml", { plugin: name });
  if (selected.length > 0) log("INFO", "Plugins enabled", { plugins: selected.map((p) => p.name).join(",") });
  log("DEBUG", "Configuration read");
  const model = lookupUser(cfg.modelUser, join(cfg.etc, "passwd"));
  const runner = lookupUser(cfg.runnerUser, join(cfg.etc, "passwd"));
  if (model.uid === 0 || runner.uid === 0) throw new UserError(msg.noUser(model.uid === 0 ? cfg.modelUser : cfg.runnerUser));
  reserveForGrader([{ user: model, nproc: cfg.modelNproc }, { user: runner, nproc: cfg.runnerNproc }]);
  setMaxLogBytes(cfg.maxLogBytes);
  return { cfg, upload, level, port, renumbered, task, source, plugins: selected, model, runner };
}

async function openRun(env: Env, s: Settings): Promise<Sandbox> {
  const { cfg, upload, task, source, model, runner } = s;
  const record = new RunRecord(cfg, model, runner);
  record.install();
  if (upload) {
    record.pushHome = async () => {
      // Nothing of the agent's may run while its results are packed.
      for (const user of [model, runner]) await killUserProcesses(user);
      const { uploadResults } = await import("../relay/results-upload.ts");
      return uploadResults(cfg.results, cfg.archive, upload);
    };
  }
  configureLog({ debug: cfg.debug, file: join(cfg.results, "entrypoint.log") });
  const { prepared, archiveOwner } = await ungradedOnFailure(record, () => {
    const prepared = prepare(cfg.work, source, model, env);
    reown(s.renumbered, model.name, [source, model.home]);
    log("DEBUG", "Prepared");
    const archiveOwner = lockDown(cfg, task, model);
    log("DEBUG", "Locked down");
    // The run's gateway socket and key (mounted by ssebench run) → SSE_BASE_URL, SSE_API_KEY.
    Object.assign(env, openModelAccess(cfg.modelAccess));
    return { prepared, archiveOwner };
  });
  record.archiveOwner = archiveOwner;
  const taskFile = join(cfg.work, TASK_BRIEF_FILE);
  writeFileSync(taskFile, agentTaskBrief(task, cfg.taskRoot), { mode: 0o644 });

  // Children inherit only the image's variables (recorded by prepare), never the run's extras.
  const inherited = allowedInherited(env, prepared.env);
  const pluginRunner = new PluginRunner(
    { pluginsDir: cfg.pluginsDir, work: cfg.work, archive: cfg.archive, results: cfg.results, taskRoot: cfg.taskRoot, source, model, minuteMs: cfg.pluginMinuteMs, graceMs: cfg.graceMs, inherited },
    s.plugins,
  );
  record.plugins = pluginRunner;
  const tools = await ungradedOnFailure(record, () =>
    openToolApi({ level: s.level, port: s.port, task, taskRoot: cfg.taskRoot, prepared, source, work: cfg.work, results: cfg.results, taskFile, runner, inherited, checkTimeoutMs: cfg.checkTimeoutMs, graceMs: cfg.graceMs, maxFileBytes: cfg.maxFileBytes }),
  );
  log("INFO", "Tool API listening", { url: tools.url, difficulty: s.level.n });
  return { ...s, env, record, prepared, archiveOwner, taskFile, inherited, pluginRunner, tools };
}

/** A set-up step's failure: the results folder exists by now, so say there why nothing was graded. */
async function ungradedOnFailure<T>(record: RunRecord, step: () => T): Promise<T> {
  try {
    return step();
  } catch (e) {
    record.patch = notGraded("infra", e instanceof Error ? e.message : String(e));
    await record.end();
    throw e;
  }
}
