/** A run's settings: as summary.json records them, and as the container gets them (spec §4.5). */
import type { RunEnv } from "../contract/env.ts";
import { ARCHIVE_MOUNT } from "../contract/paths.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";
import type { RunConfig } from "../formats/run/summary.ts";
import type { ContainerSpec } from "./backends/container.ts";
import { JOB_LABEL } from "./backends/owner.ts";
import type { RunOptions } from "./options.ts";
import type { RunDir } from "./record/results.ts";
import { pickRunUids } from "./run-uids.ts";
import type { RunPlan } from "./validate.ts";

export function runConfig(opts: RunOptions, plan: RunPlan, tool: string): RunConfig {
  return {
    agent: plan.agent.name,
    model: plan.model,
    mode: plan.mode,
    timeout: opts.timeout,
    grading_timeout: opts.gradingTimeout,
    run_timeout: opts.runTimeout,
    difficulty: opts.difficulty,
    tool_layer: tool,
    egress: opts.egress,
    reference_run: plan.agent.reference,
    plugins: plan.plugins.selected,
    resources: opts.resources,
    keep_container: opts.keepContainer,
  };
}

/** The `docker run` settings of a run (spec §4.5): environment, mounts, labels, limits. */
export function containerSpec(
  opts: RunOptions,
  plan: RunPlan,
  hostEnv: NodeJS.ProcessEnv,
  run: { runDir: RunDir; runId: string; image: string; command: string[]; referencePatch: string | undefined; modelDir?: string; agentStore?: string; sidecar?: { image: string; entrypoint: string } },
): ContainerSpec {
  const env: RunEnv = {
    SSE_ARCHIVE: ARCHIVE_MOUNT,
    SSE_DIFFICULTY: String(opts.difficulty),
    TIMEOUT: String(opts.timeout),
    SSE_GRADING_TIMEOUT: String(opts.gradingTimeout),
    ...pickRunUids(),
  };
  if (plan.served) env.SSE_MODEL_NAME = plan.served.config.name;
  if (plan.plugins.env !== undefined) env.SSE_PLUGINS = plan.plugins.env;
  // A sidecar run has no plugins (its entrypoint runs none either way).
  if (run.sidecar) env.SSE_PLUGINS = "";
  if (hostEnv.SSEBENCH_DEBUG) env.SSE_DEBUG = "1";
  const labels: Record<string, string> = {
    "ssebench.results": run.runDir.path,
    "ssebench.task-id": plan.task.id,
    "ssebench.model": plan.model,
    "ssebench.agent": plan.agent.name,
    "ssebench.run-id": run.runId,
  };
  if (plan.agent.reference) labels["ssebench.reference-run"] = "true";
  if (opts.jobDir) labels[JOB_LABEL] = opts.jobDir;
  return {
    image: run.image,
    runDir: run.runDir.path,
    archiveDir: run.runDir.archive,
    env,
    labels,
    resources: opts.resources,
    platform: plan.platform,
    referencePatch: run.referencePatch,
    command: run.sidecar ? [] : run.command,
    modelDir: run.modelDir,
    ...(run.agentStore ? { agentStore: run.agentStore } : {}),
    ...(run.sidecar ? { sidecar: { ...run.sidecar, command: run.command, source: (plan.task.metadata as TaskMetadata).source } } : {}),
  };
}
