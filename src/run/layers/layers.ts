/**
 * Image layers built by `docker build`, each carrying the hash of its inputs in a label: a layer
 * whose label matches is reused (an unchanged re-run builds nothing). Images are then used by ID,
 * so a concurrent run that re-tags a layer never changes the image another run starts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeCause, UserError } from "../../errors.ts";
import { STORE_LABEL } from "../backends/agent-store.ts";
import { type Docker, firstLine } from "../backends/docker.ts";
import { msg } from "../messages.ts";
import type { Reporter } from "../reporter.ts";
import { VERSION } from "../../version.ts";

export const INPUTS_LABEL = "ssebench.inputs";
/**
 * What else every image ssebench builds says about itself (`ssebench images` reads them; children
 * inherit a parent's, and override the ones they set): which layer it is (LayerSpec.layer), the
 * ssebench version that built it, and the task, dataset and agent it belongs to where there is one.
 */
export const IMAGE_LABELS = {
  layer: "ssebench.layer",
  version: "ssebench.version",
  task: "ssebench.task",
  dataset: "ssebench.dataset",
  agent: "ssebench.agent",
} as const;

export interface ImageInfo {
  id: string;
  inputs: string;
  /** the image's CMD ([] when it has none) */
  cmd: string[];
  /** the agent store an agent files image marks complete (backends/agent-store.ts) */
  store?: string;
}

/**
 * A name (dataset folder, task ID, agent name) as one component of an image path, which docker
 * allows only as `[a-z0-9]+` joined by '.', '_', '__' or dashes: lower-cased, anything else becomes
 * '-', so a dataset folder "My DS+1" or a task "a..b" gives a valid tag instead of a refused build.
 */
export function refComponent(name: string): string {
  const joined = name.toLowerCase().replace(/[^a-z0-9]+/g, (sep) => (/^(\.|_|__|-+)$/.test(sep) ? sep : "-"));
  return joined.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "") || "x";
}

/** `name` → `name:latest` when it has no tag or digest (docker's own default, made explicit). */
export function withTag(ref: string): string {
  if (ref.includes("@")) return ref;
  const lastSlash = ref.lastIndexOf("/");
  return ref.slice(lastSlash + 1).includes(":") ? ref : `${ref}:latest`;
}

const label = (name: string) => `{{with .Config.Labels}}{{index . "${name}"}}{{end}}`;
const INSPECT_FORMAT = `{{.Id}}\t${label(INPUTS_LABEL)}\t{{json .RepoTags}}\t{{json .Config.Cmd}}\t${label(STORE_LABEL)}`;

/** Looks up several local images with one docker call; missing ones are simply absent. */
export async function inspectImages(docker: Docker, refs: readonly string[]): Promise<Map<string, ImageInfo>> {
  const found = new Map<string, ImageInfo>();
  if (refs.length === 0) return found;
  const tagged = refs.map(withTag);
  const r = await docker.call(["image", "inspect", "--format", INSPECT_FORMAT, ...tagged]);
  for (const line of r.stdout.split("\n")) {
    const [id, inputs, tagsJson, cmdJson, store] = line.split("\t");
    if (!id || tagsJson === undefined) continue;
    const tags = JSON.parse(tagsJson) as string[] | null;
    const cmd = (cmdJson ? JSON.parse(cmdJson) : null) as string[] | null;
    const info: ImageInfo = { id, inputs: inputs === "<no value>" ? "" : (inputs ?? ""), cmd: cmd ?? [] };
    if (store && store !== "<no value>") info.store = store;
    for (const [i, ref] of tagged.entries()) {
      if (tags?.includes(ref) || ref === id) found.set(refs[i] ?? ref, info);
    }
  }
  return found;
}

export interface LayerSpec {
  /** for messages: "case image", "tool layer", "agent layer" */
  layer: string;
  tag: string;
  context: string;
  /** Dockerfile path (default: <context>/Dockerfile) */
  dockerfile?: string;
  buildArgs: Record<string, string>;
  /** hash of every input, stored in the ssebench.inputs label */
  inputs: string;
  /** where a failed build's whole output is kept (the run folder), named in the error */
  log?: string;
  /** labels besides the inputs, layer and version ones (IMAGE_LABELS: task, dataset, agent) */
  labels?: Record<string, string>;
}

/** `<run folder>/case-image-build.log` and the like: where a run keeps a failed build's output. */
export function buildLogFile(runDir: string, layer: string): string {
  return join(runDir, `${layer.replaceAll(" ", "-")}-build.log`);
}

export interface LayerResult {
  id: string;
  built: boolean;
  tag: string;
}

/** Writes a failed build's output to `file`; returns the file, or undefined when none was kept. */
function keepLog(file: string | undefined, output: string, reporter: Reporter): string | undefined {
  if (!file) return undefined;
  try {
    writeFileSync(file, output);
    return file;
  } catch (cause) {
    reporter.warn(msg.buildLogUnwritable(file, describeCause(cause)));
    return undefined;
  }
}

/** Reuses `known` when its label equals spec.inputs, else builds (progress through the reporter). */
export async function ensureLayer(
  docker: Docker,
  spec: LayerSpec,
  known: ImageInfo | undefined,
  reporter: Reporter,
  signal?: AbortSignal,
): Promise<LayerResult> {
  if (known && known.inputs === spec.inputs) {
    reporter.info(msg.layerCached(spec.layer, spec.tag));
    return { id: known.id, built: false, tag: spec.tag };
  }
  reporter.start(msg.buildingLayer(spec.layer, spec.tag));
  const temp = mkdtempSync(join(tmpdir(), "ssebench-build-"));
  const iidfile = join(temp, "iid");
  // --force-rm: a failed step leaves no stopped container behind.
  const args = ["build", "--force-rm", "--network", "none", "--iidfile", iidfile, "--label", `${INPUTS_LABEL}=${spec.inputs}`];
  const labels = { [IMAGE_LABELS.layer]: spec.layer, [IMAGE_LABELS.version]: VERSION, ...spec.labels };
  for (const [k, v] of Object.entries(labels)) args.push("--label", `${k}=${v}`);
  for (const [k, v] of Object.entries(spec.buildArgs)) args.push("--build-arg", `${k}=${v}`);
  args.push("-t", withTag(spec.tag), "-f", spec.dockerfile ?? join(spec.context, "Dockerfile"), spec.context);
  let pending = "";
  // stdout and stderr in the order they came, for the log of a failed build.
  const transcript: string[] = [];
  const onOutput = (chunk: string) => {
    transcript.push(chunk);
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const step = /^Step (\d+\/\d+) : (.*)$/.exec(line);
      if (step) reporter.step(`${spec.layer}: step ${step[1]} ${step[2]}`);
      reporter.buildOutput(line);
    }
  };
  try {
    // The classic builder: it needs no buildx plugin, and FROM ${ARG} gives it the base image.
    const r = await docker.call(args, { onOutput, signal, env: { DOCKER_BUILDKIT: "0" } });
    if (signal?.aborted) throw new UserError(msg.aborted(String(signal.reason)));
    if (r.code !== 0) {
      reporter.buildFailed(`${r.stdout}\n${r.stderr}`);
      throw new UserError(msg.buildFailed(spec.layer, r.code, keepLog(spec.log, transcript.join(""), reporter)));
    }
    const id = readFileSync(iidfile, "utf8").trim();
    if (!id) throw new UserError(msg.buildFailed(spec.layer, r.code, keepLog(spec.log, transcript.join(""), reporter)) + `: ${firstLine(r.stderr)}`);
    reporter.success(`Built the ${spec.layer} ${spec.tag}`);
    return { id, built: true, tag: spec.tag };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
