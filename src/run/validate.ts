/**
 * Spec §4.2: everything `ssebench run` checks before it starts anything, in the reference's order,
 * each failure one line and exit 1. The result is the plan the orchestrator carries out.
 */
import { arch as hostArch } from "node:os";
import { DEFAULT_REGISTRY, normaliseRegistry } from "../catalog/image-refs.ts";
import { UserError } from "../errors.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";
import type { LoadedModel } from "../gateway/models.ts";
import { type Agent, agentUsesModel, loadAgent, PATCH_AGENT } from "./layers/agents.ts";
import { cacheDir, type Home } from "./home.ts";
import { msg } from "./messages.ts";
import { loadModel } from "./models.ts";
import type { Mode, RunOptions } from "./options.ts";
import { loadPlugins, type PluginSelection, selectPlugins } from "./plugins.ts";
import { NO_MODEL } from "./record/results.ts";
import { type ResolvedTask, resolveCatalogTask, resolveLocalTask } from "./task-source.ts";

export interface RunPlan {
  agent: Agent;
  /** --mode, else the agent's own: sandbox (in the task's container) or sidecar (beside it) */
  mode: Mode;
  /** the folder name under results/<task>/ and SSE_MODEL_NAME */
  model: string;
  /** the model the gateway serves to the run (agents that make model calls, or llm: true plugins) */
  served: LoadedModel | undefined;
  task: ResolvedTask;
  plugins: PluginSelection;
  registry: string;
  /** `linux/<arch>` when the task does not list the host's architecture, else undefined */
  platform: string | undefined;
}

const HOST_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** The task's architecture: the host's if it lists it, else its first (run under emulation). */
export function choosePlatform(taskArch: readonly string[], host = HOST_ARCH[hostArch()] ?? hostArch()): string | undefined {
  if (taskArch.length === 0 || taskArch.includes(host)) return undefined;
  return `linux/${taskArch[0]}`;
}

export interface ValidateDeps {
  home: Home;
  env: NodeJS.ProcessEnv;
  warn: (line: string) => void;
}

export async function validateRun(opts: RunOptions, deps: ValidateDeps): Promise<RunPlan> {
  const { home, env, warn } = deps;
  // 1. model
  const usesModel = await agentUsesModel(home.agentsDir, opts.agent);
  if (usesModel && !opts.model) throw new UserError(msg.modelRequired(opts.agent));
  // 3. egress (the setting's syntax was checked with the options)
  if (opts.egress === "open") throw new UserError(msg.egressOpen());
  // 6. plugins and sidecar (again once the agent, whose mode is the default, is known)
  if (opts.mode === "sidecar" && opts.plugins !== undefined) throw new UserError(msg.pluginSidecar());
  // 7. plugins.yaml
  const plugins = selectPlugins(home.pluginsDir, await loadPlugins(home.pluginsDir, cacheDir(env, "parse")), opts.plugins);
  // A model for an agent that makes no calls still serves its llm: true plugins (the oracle).
  const forPlugins = !usesModel && plugins.llm.length > 0 && !!opts.model && opts.model !== NO_MODEL;
  if (!usesModel && !forPlugins && opts.model && opts.model !== NO_MODEL) warn(msg.modelIgnored(opts.agent, opts.model));
  // 8. task
  // Not catalog/client's registryFromEnv: a --local run must not load the catalog client.
  const registry = normaliseRegistry(env.SSEBENCH_REGISTRY?.trim() || DEFAULT_REGISTRY);
  const task = opts.local
    ? await resolveLocalTask(opts.local, opts.task, registry)
    : await resolveCatalogTask({ catalog: opts.catalog, env, home: home.root, build: opts.build }, opts.task, registry);
  for (const w of task.warnings) warn(w);
  // 9. reference patch
  if (opts.agent === "reference" && !(task.metadata as TaskMetadata).files.patch) {
    throw new UserError(msg.noReferencePatch(opts.task));
  }
  // 10. agent
  const agent = await loadAgent(home.agentsDir, opts.agent);
  if (agent.name === PATCH_AGENT && !opts.patchFile) throw new UserError(msg.patchAgentAlone());
  const mode = sidecarRules(opts, agent);
  // 11. model
  let model = NO_MODEL;
  let served: LoadedModel | undefined;
  if (agent.usesModel) {
    model = opts.model as string;
    served = await loadModel(home.root, model, env, opts.models);
    const common = agent.wires.filter((w) => (served as LoadedModel).config.wires.includes(w as never));
    if (common.length === 0) throw new UserError(msg.wireMismatch(agent.name, agent.wires, model, served.config.wires));
  } else if (forPlugins) {
    // Filed under model 'none': the agent's result does not depend on it.
    served = await loadModel(home.root, opts.model as string, env, opts.models);
  }
  // A swarm trial's model calls go home through its results relay (docs/backends.md): none without uploads.
  if (served && opts.backend === "swarm" && env.SSEBENCH_SWARM_RESULTS === "copy") throw new UserError(msg.swarmModelNeedsUpload());
  // 12. emulation
  const platform = choosePlatform(task.arch);
  if (platform) warn(msg.emulation(HOST_ARCH[hostArch()] ?? hostArch(), platform.slice("linux/".length)));
  return { agent, mode, model, served, task, plugins, registry, platform };
}

/** The run's mode is the agent's; --mode may only repeat it. A sidecar has no plugins and runs on the local backend. */
function sidecarRules(opts: RunOptions, agent: Agent): Mode {
  if (opts.mode !== undefined && opts.mode !== agent.mode) throw new UserError(msg.modeMismatch(opts.mode, agent.name, agent.mode));
  if (agent.mode !== "sidecar") return agent.mode;
  if (opts.plugins !== undefined) throw new UserError(msg.pluginSidecar());
  if (opts.backend === "swarm") throw new UserError(msg.sidecarSwarm(agent.name));
  return agent.mode;
}
