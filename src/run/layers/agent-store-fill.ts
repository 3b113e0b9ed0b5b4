/**
 * The agent store on the local engine (backends/agent-store.ts): the agent's files image is built
 * under a tag of this process's own, its /opt/agent copied into the new volume by the engine
 * itself (a container created from it with the empty volume mounted there: Docker fills an empty
 * volume from the image), then the marker — the files image's config without its files — takes
 * the files image's tag, and the files image is removed. One copy of the files stays on the engine.
 */
import { randomBytes } from "node:crypto";
import { ensureStore, STORE_LABEL, STORE_TARGET, storeVolumeName, volumeExists } from "../backends/agent-store.ts";
import { type Docker, dockerOk } from "../backends/docker.ts";
import { msg } from "../messages.ts";
import type { Reporter } from "../reporter.ts";
import { ensureNpmCli, npmBuildContext, npmCacheDir } from "./agent-npm.ts";
import { type AgentFiles, agentFilesSpec, agentStoreInputs, checkAgentImage, type ImageConfig, imageConfigs, storeMarkerSpec } from "./agent-layer.ts";
import type { Agent } from "./agents.ts";
import { ensureLayer, IMAGE_LABELS, type ImageInfo, inspectImages, type LayerSpec } from "./layers.ts";

export interface StoreDeps {
  docker: Docker;
  reporter: Reporter;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** where a failed build's output is kept */
  log: (layer: string) => string;
}

export interface AgentStore {
  volume: string;
  /** the marker image (the files image's config, tagged as the files image) */
  markerId: string;
  /** images this call built (tags), for the run's record */
  built: string[];
}

/**
 * The store's volume and inputs for an agent. The volume's name also stands for the marker's
 * (SSEBENCH_REGISTRY changes it): image names of another registry on the same engine get a store of
 * their own, never remove one that a trial of the other names mounts.
 */
export function agentStoreOf(agent: Agent, filesTag: string): { volume: string; inputs: string; filesInputs: string } {
  const filesInputs = agentFilesSpec(agent, "").inputs;
  const inputs = agentStoreInputs(filesInputs);
  return { volume: storeVolumeName(agent.name, Bun.CryptoHasher.hash("sha256", `${inputs}\0${filesTag}`, "hex")), inputs, filesInputs };
}

const complete = (marker: ImageInfo | undefined, inputs: string, volume: string) => marker?.inputs === inputs && marker.store === volume;

/**
 * The agent's store, filled when its marker is not on the engine (or its volume is gone), checked
 * against the tool layer's config first (`tool`); the files' config comes from the marker.
 */
export async function ensureAgentStore(deps: StoreDeps, agent: Agent, filesTag: string, known: ImageInfo | undefined, tool: () => Promise<ImageConfig>): Promise<AgentStore> {
  const { docker, reporter } = deps;
  const { volume, inputs, filesInputs } = agentStoreOf(agent, filesTag);
  if (complete(known, inputs, volume) && (await volumeExists(docker, volume))) {
    reporter.info(msg.storeCached(volume));
    return { volume, markerId: (known as ImageInfo).id, built: [] };
  }
  const fillTag = `ssebench-fill/${filesTag.replace(/^.*\//, "").replace(":", "-")}:${randomBytes(6).toString("hex")}`;
  const files = await buildFilesImage(deps, agent, { ...agentFilesSpec(agent, fillTag), inputs: filesInputs });
  const built: string[] = [];
  try {
    const [filesConfig = {}] = await imageConfigs(docker, [files]);
    const checked = checkAgentImage(agent, filesConfig, await tool());
    const ready = async () => complete((await inspectImages(docker, [filesTag])).get(filesTag), inputs, volume) && (await volumeExists(docker, volume));
    const labels = { [IMAGE_LABELS.layer]: "agent store", [IMAGE_LABELS.agent]: agent.name, "ssebench.inputs": inputs };
    const f = { files, volume, filesTag, inputs, checked };
    const done = () => void built.push(filesTag);
    await ensureStore({ docker, volume, labels, lockImage: files, ready, signal: deps.signal, fill: () => fill(deps, agent, f).then(done), mark: () => mark(deps, agent, f).then(done) });
  } finally {
    await docker.call(["image", "rm", fillTag]);
  }
  const marker = (await inspectImages(docker, [filesTag])).get(filesTag);
  return { volume, markerId: marker?.id ?? "", built };
}

/** The files image under this process's own tag (the npm CLI installed and linked into its context first). */
async function buildFilesImage(deps: StoreDeps, agent: Agent, spec: LayerSpec): Promise<string> {
  const npm = agent.npm;
  let context: { context: string; cleanup: () => void } | undefined;
  if (npm) {
    const dir = await ensureNpmCli(npm, deps.env, (what) => deps.reporter.info(msg.npmInstalling(what, npmCacheDir(deps.env, npm))));
    context = npmBuildContext(agent.dir, npm, dir);
  }
  try {
    const labels = { [IMAGE_LABELS.agent]: agent.name };
    const full = { ...spec, log: deps.log(spec.layer), labels, ...(context ? { context: context.context } : {}) };
    return (await ensureLayer(deps.docker, full, undefined, deps.reporter, deps.signal)).id;
  } finally {
    context?.cleanup();
  }
}

/** Under the lock: the engine copies the files image's /opt/agent into the empty volume; then the marker. */
async function fill(deps: StoreDeps, agent: Agent, f: { files: string; volume: string; filesTag: string; inputs: string; checked: AgentFiles }): Promise<void> {
  const { docker, reporter, signal } = deps;
  reporter.start(msg.storeFilling(f.volume));
  const what = msg.storeWhat(f.volume);
  const created = await dockerOk(docker, what, ["container", "create", "--network", "none", "--mount", `type=volume,source=${f.volume},target=${STORE_TARGET}`, f.files], { signal });
  await docker.call(["rm", "--force", created.stdout.trim()]);
  await mark(deps, agent, f);
}

/** The marker: the files image's config without its files, under the files image's name. */
async function mark(deps: StoreDeps, agent: Agent, f: { volume: string; filesTag: string; inputs: string; checked: AgentFiles }): Promise<void> {
  const { docker, reporter, signal } = deps;
  const { spec, cleanup } = storeMarkerSpec(f.filesTag, f.checked, f.inputs, f.volume);
  try {
    const labels = { [IMAGE_LABELS.agent]: agent.name, [STORE_LABEL]: f.volume };
    await ensureLayer(docker, { ...spec, log: deps.log(spec.layer), labels }, undefined, reporter, signal);
  } finally {
    cleanup();
  }
}
