/**
 * The images ssebench made on this engine, with what each one is and belongs to, its size and the
 * containers that use it. An image is ssebench's when it carries one of ssebench's build labels:
 * `ssebench.inputs` (case images built from a folder, tool layers, agent files, agent layers, sidecar images:
 * run/layers/layers.ts) or `ssebench.base.inputs` on an image named `base-<name>:<version>` (the base
 * images of images/base-images/build.sh: an image built FROM one inherits the label, so a case image
 * built by hand would otherwise look like a base image). Nothing else is listed, so nothing else can
 * be pruned. Agent stores (run/backends/agent-store.ts) are volumes, listed beside the images as
 * what they are: the engine's one copy of an agent's files. Two docker calls: `system df -v` (sizes
 * shared and unique, containers per image; the volumes) and one `image inspect` of those images
 * (labels, tags, bytes).
 */
import { type Docker, dockerOk } from "../run/backends/docker.ts";
import { STORE_LABEL } from "../run/backends/agent-store.ts";
import { IMAGE_LABELS, INPUTS_LABEL } from "../run/layers/layers.ts";

export const BASE_INPUTS_LABEL = "ssebench.base.inputs";
const BASE_NAME = /(^|\/)base-[^/:]+:[^/]+$/;

export type ImageKind = "agent layer" | "agent files" | "agent store" | "sidecar image" | "tool layer" | "case image" | "base image" | "layer";

export interface ImageEntry {
  /** sha256:… */
  id: string;
  /** repo:tag names; none for an image a newer build took the name of */
  tags: string[];
  kind: ImageKind;
  task?: string;
  dataset?: string;
  agent?: string;
  /** the version part of its first tag */
  tagVersion?: string;
  /** the ssebench version that built it (label; absent on images built before the label) */
  builtBy?: string;
  created: string;
  /** bytes, the image with every layer below it */
  size: number;
  /** bytes of it that no other image holds (what removing it alone frees), as the engine rounds it */
  unique: number;
  /** bytes it shares with other images */
  shared: number;
  /** containers (running or stopped) created from it */
  containers: number;
  labels: Record<string, string>;
}

const KINDS: readonly string[] = ["agent layer", "agent files", "sidecar image", "tool layer", "case image", "base image"];

/** "185.4MB" → bytes (the engine's decimal units). */
export function parseSize(text: string): number {
  const m = /^([\d.]+)\s*([kMGTP]?B)$/.exec(text.trim());
  if (!m) return 0;
  const scale: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15 };
  return Math.round(Number(m[1]) * (scale[m[2] as string] ?? 1));
}

/** What a tag's name says, for images built before the labels (and as a cross-check). */
export function fromName(tag: string): { kind?: ImageKind; task?: string; dataset?: string; agent?: string; version?: string } {
  const colon = tag.lastIndexOf(":");
  const [repo, version] = colon > tag.lastIndexOf("/") ? [tag.slice(0, colon), tag.slice(colon + 1)] : [tag, undefined];
  const parts = repo.split("/");
  const [a = "", b = "", c = ""] = parts.slice(-3);
  if (b === "tool") return { kind: "tool layer", task: c, version };
  if (b === "agent-files") return { kind: "agent files", agent: c, version };
  if (b === "agent-sidecar") return { kind: "sidecar image", agent: c, version };
  if (b.startsWith("agent-")) return { kind: "agent layer", agent: b.slice("agent-".length), task: c, version };
  if (a === "case") return { kind: "case image", dataset: b, task: c, version };
  return { version };
}

interface DfImage {
  ID: string;
  Containers: string;
  SharedSize: string;
  UniqueSize: string;
}

interface DfVolume {
  Name: string;
  /** "k=v,k=v" */
  Labels: string;
  Links: string;
  Size: string;
}

/** An agent store's volume as an entry; undefined for any other volume. */
export function describeStore(volume: DfVolume): ImageEntry | undefined {
  const labels: Record<string, string> = {};
  for (const pair of volume.Labels ? volume.Labels.split(",") : []) {
    const at = pair.indexOf("=");
    if (at > 0) labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (labels[STORE_LABEL] !== volume.Name) return undefined;
  const size = parseSize(volume.Size);
  const entry: ImageEntry = { id: volume.Name, tags: [volume.Name], kind: "agent store", created: "", size, unique: size, shared: 0, containers: Number(volume.Links) || 0, labels };
  if (labels[IMAGE_LABELS.agent]) entry.agent = labels[IMAGE_LABELS.agent];
  return entry;
}

/** Classifies one inspected image; undefined when it carries none of ssebench's labels. */
export function describeImage(id: string, tags: string[], labels: Record<string, string>, size: number, created: string): ImageEntry | undefined {
  const built = INPUTS_LABEL in labels;
  if (!built && !(BASE_INPUTS_LABEL in labels && tags.some((t) => BASE_NAME.test(t)))) return undefined;
  const named = tags[0] ? fromName(tags[0]) : {};
  const labelled = labels[IMAGE_LABELS.layer];
  const kind: ImageKind = !built ? "base image" : labelled && KINDS.includes(labelled) ? (labelled as ImageKind) : (named.kind ?? "layer");
  // Labels first: a child inherits its parent's task and dataset, and sets its own.
  const pick = (key: string, fallback: string | undefined) => labels[key] || fallback;
  const entry: ImageEntry = { id, tags, kind, created, size, unique: 0, shared: 0, containers: 0, labels };
  const ofAgent = kind === "agent files" || kind === "sidecar image";
  const task = ofAgent || kind === "base image" ? undefined : pick(IMAGE_LABELS.task, named.task);
  const agent = ofAgent || kind === "agent layer" ? pick(IMAGE_LABELS.agent, named.agent) : undefined;
  const dataset = kind === "case image" ? pick(IMAGE_LABELS.dataset, named.dataset) : undefined;
  if (task) entry.task = task;
  if (agent) entry.agent = agent;
  if (dataset) entry.dataset = dataset;
  if (named.version) entry.tagVersion = named.version;
  if (labels[IMAGE_LABELS.version]) entry.builtBy = labels[IMAGE_LABELS.version];
  return entry;
}

const INSPECT = "{{json .Id}}\t{{json .RepoTags}}\t{{json .Config.Labels}}\t{{.Size}}\t{{json .Created}}";
const ORDER: readonly ImageKind[] = ["agent layer", "agent files", "agent store", "sidecar image", "tool layer", "case image", "base image", "layer"];

const DF = ["system", "df", "-v", "--format", "{{json .Images}}\n{{json .Volumes}}"];
const DF_BUSY = /disk usage operation is already running/;

/** `docker system df -v`; the engine runs one at a time and refuses another meanwhile, so a refusal is tried again (up to 60 s). */
async function diskUsage(docker: Docker) {
  for (let i = 0; i < 120; i++) {
    const r = await docker.call(DF);
    if (r.code === 0) return r;
    if (!DF_BUSY.test(r.stderr)) break;
    await Bun.sleep(500);
  }
  // Said as one line (the engine's reason) by the same call.
  return dockerOk(docker, "Listing the images", DF);
}

/** Every ssebench image on the engine (optionally only those with label KEY=VALUE), ordered by kind then name. */
export async function listImages(docker: Docker, only?: { key: string; value: string }): Promise<ImageEntry[]> {
  const df = await diskUsage(docker);
  const [imagesJson = "", volumesJson = ""] = df.stdout.trim().split("\n");
  const usage = new Map<string, DfImage>();
  for (const image of (JSON.parse(imagesJson || "[]") as DfImage[] | null) ?? []) usage.set(image.ID, image);
  const entries: ImageEntry[] = [];
  for (const volume of (JSON.parse(volumesJson || "[]") as DfVolume[] | null) ?? []) {
    const store = describeStore(volume);
    if (store && (!only || store.labels[only.key] === only.value)) entries.push(store);
  }
  const name = (e: ImageEntry) => e.tags[0] ?? `~${e.created}`;
  const sorted = () => entries.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  if (usage.size === 0) return sorted();
  // An image removed since the listing only drops out of the answer (inspect then exits 1).
  const inspect = ["image", "inspect", "--format", INSPECT, ...usage.keys()];
  const r = await docker.call(inspect);
  if (r.code !== 0 && !r.stdout.trim()) await dockerOk(docker, "Reading the images' labels", inspect);
  for (const line of r.stdout.split("\n")) {
    if (!line.trim()) continue;
    const [idJson, tagsJson, labelsJson, size, createdJson] = line.split("\t");
    const id = JSON.parse(idJson as string) as string;
    const labels = (JSON.parse(labelsJson ?? "null") as Record<string, string> | null) ?? {};
    if (only && labels[only.key] !== only.value) continue;
    const tags = ((JSON.parse(tagsJson ?? "null") as string[] | null) ?? []).filter((t) => t !== "<none>:<none>").sort();
    const entry = describeImage(id, tags, labels, Number(size) || 0, JSON.parse(createdJson ?? '""') as string);
    if (!entry) continue;
    const used = usage.get(id);
    if (used) Object.assign(entry, { unique: parseSize(used.UniqueSize), shared: parseSize(used.SharedSize), containers: Number(used.Containers) || 0 });
    entries.push(entry);
  }
  return sorted();
}
