/**
 * The layers of one run (docs/images.md): the case image, the tool layer on it and the agent layer
 * on that, each built only when its inputs changed; a failed build's output is kept in the run
 * folder.
 */
import { caseBaseImages, ensureCaseImage } from "./layers/case-image.ts";
import { saveDigestCache } from "./layers/content-hash.ts";
import type { Docker } from "./backends/docker.ts";
import type { RunGuard } from "./guard.ts";
import type { Home } from "./home.ts";
import { buildLogFile, ensureLayer, IMAGE_LABELS, type ImageInfo, inspectImages } from "./layers/layers.ts";
import { msg } from "./messages.ts";
import type { Reporter } from "./reporter.ts";
import { STORE_LABEL } from "./backends/agent-store.ts";
import type { AgentStoreRef } from "./backends/backend.ts";
import { agentLayerInputs, agentLayerSpec, checkAgentImage, type ImageConfig, imageConfigs } from "./layers/agent-layer.ts";
import { ensureAgentStore } from "./layers/agent-store-fill.ts";
import { agentFilesTag, agentSidecarTag, agentTag, toolInputs, toolLayerSpec, toolTag } from "./layers/tool-layers.ts";
import { sidecarCommand, sidecarImageSpec } from "./layers/sidecar-image.ts";
import type { RunPlan } from "./validate.ts";

export interface LayerDeps {
  docker: Docker;
  reporter: Reporter;
  home: Home;
  env: NodeJS.ProcessEnv;
}

/** What the layers came to: the images the run starts and records. */
export interface Images {
  caseId: string | null;
  /** the image the trial's container runs: the agent layer, or the tool layer beside a sidecar */
  agentId: string | null;
  /** the agent's command (its layer's CMD, or its sidecar image's), passed after the pinned entrypoint */
  agentCmd: string[];
  /** a sidecar agent's own image (sidecar mode) */
  sidecarId?: string;
  /** the volume that holds the agent's files, mounted read-only at /opt/agent (backends/agent-store.ts) */
  agentStore?: AgentStoreRef;
  built: string[];
}

/** One docker call for the three layers and the case image's bases; also the first contact with the engine. */
export function lookUpLayers(docker: Docker, plan: RunPlan): Promise<Map<string, ImageInfo>> {
  const agent = plan.agent.mode === "sidecar" ? [agentSidecarTag(plan.registry, plan.agent)] : [agentFilesTag(plan.registry, plan.agent), agentTag(plan.registry, plan.agent, plan.task.id)];
  return inspectImages(docker, [plan.task.case.tag, toolTag(plan.registry, plan.task.id), ...agent, ...caseBaseImages(plan.task.case, plan.registry)]);
}

/** Builds what is out of date; a failed build's output is kept in the run folder. */
export async function buildLayers(deps: LayerDeps, plan: RunPlan, guard: RunGuard, images: Images, known: Map<string, ImageInfo>, runDir: string): Promise<void> {
  const { docker, reporter, home } = deps;
  const tTag = toolTag(plan.registry, plan.task.id);
  guard.phase = "the image builds";
  const task = { [IMAGE_LABELS.task]: plan.task.id };
  const caseLabels = { ...task, [IMAGE_LABELS.dataset]: plan.task.dataset.name };
  const caseImage = await ensureCaseImage(docker, plan.task.case, plan.registry, reporter, guard.abortSignal, known, plan.platform, buildLogFile(runDir, "case image"), home.root, caseLabels);
  images.caseId = caseImage.id;
  if (caseImage.built) images.built.push(caseImage.tag);
  const inputs = toolInputs(home, caseImage.id, plan.plugins.selected);
  let tool = { id: known.get(tTag)?.id ?? "", built: false, tag: tTag };
  if (known.get(tTag)?.inputs !== inputs) {
    const { spec, cleanup } = toolLayerSpec(home, tTag, caseImage.id, plan.plugins.selected, inputs);
    try {
      tool = await ensureLayer(docker, { ...spec, log: buildLogFile(runDir, spec.layer), labels: task }, known.get(tTag), reporter, guard.abortSignal);
    } finally {
      cleanup();
    }
    images.built.push(tTag);
  } else reporter.info(msg.layerCached("tool layer", tTag));
  if (plan.agent.mode === "sidecar") await buildSidecarImage(deps, plan, guard, images, known, tool.id, runDir);
  else await buildAgentLayer(deps, plan, guard, images, known, tool.id, runDir);
  saveDigestCache();
}

/** A sidecar agent's whole image (sidecar-image.ts); the trial's own container runs the tool layer. */
async function buildSidecarImage(deps: LayerDeps, plan: RunPlan, guard: RunGuard, images: Images, known: Map<string, ImageInfo>, toolId: string, runDir: string): Promise<void> {
  const tag = agentSidecarTag(plan.registry, plan.agent);
  const spec = await sidecarImageSpec(deps.docker, plan.agent, tag);
  const labels = { [IMAGE_LABELS.agent]: plan.agent.name };
  const sidecar = await ensureLayer(deps.docker, { ...spec, log: buildLogFile(runDir, spec.layer), labels }, known.get(tag), deps.reporter, guard.abortSignal);
  if (sidecar.built) images.built.push(tag);
  const [config = {}] = sidecar.built ? await imageConfigs(deps.docker, [sidecar.id]) : [{ Cmd: known.get(tag)?.cmd }];
  images.agentCmd = sidecarCommand(plan.agent, config.Cmd);
  images.sidecarId = sidecar.id;
  images.agentId = toolId;
}

/** The agent's store (agent-store-fill.ts), then the agent layer on the tool layer (agent-layer.ts); both checked. */
async function buildAgentLayer(deps: LayerDeps, plan: RunPlan, guard: RunGuard, images: Images, known: Map<string, ImageInfo>, toolId: string, runDir: string): Promise<void> {
  const { docker, reporter } = deps;
  let toolConfig: Promise<ImageConfig> | undefined;
  const tool = () => (toolConfig ??= imageConfigs(docker, [toolId]).then(([c = {}]) => c));
  const fTag = agentFilesTag(plan.registry, plan.agent);
  const storeDeps = { docker, reporter, env: deps.env, signal: guard.abortSignal, log: (layer: string) => buildLogFile(runDir, layer) };
  const store = await ensureAgentStore(storeDeps, plan.agent, fTag, known.get(fTag), tool);
  images.built.push(...store.built);
  images.agentStore = { agent: plan.agent.name, volume: store.volume, markerId: store.markerId, markerTag: fTag };
  const aTag = agentTag(plan.registry, plan.agent, plan.task.id);
  const inputs = agentLayerInputs(store.markerId, toolId);
  const cached = known.get(aTag);
  if (cached && cached.inputs === inputs) {
    reporter.info(msg.layerCached("agent layer", aTag));
    images.agentId = cached.id;
    images.agentCmd = cached.cmd;
    return;
  }
  const [markerConfig = {}] = await imageConfigs(docker, [store.markerId]);
  const checked = checkAgentImage(plan.agent, markerConfig, await tool());
  const { spec, cleanup } = agentLayerSpec(aTag, toolId, checked, inputs);
  try {
    const labels = { [IMAGE_LABELS.task]: plan.task.id, [IMAGE_LABELS.agent]: plan.agent.name, [STORE_LABEL]: store.volume };
    const agent = await ensureLayer(docker, { ...spec, log: buildLogFile(runDir, spec.layer), labels }, undefined, reporter, guard.abortSignal);
    images.built.push(aTag);
    images.agentId = agent.id;
    images.agentCmd = checked.cmd;
  } finally {
    cleanup();
  }
}
