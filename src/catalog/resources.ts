/**
 * Everything the service can answer, each rendered once (the fixed paths at start-up, the
 * per-task bodies and /manifest.json on their first request): bodies as bytes with their ETag and
 * headers, so a request costs a map lookup (hashing every body per request, as Hono's etag
 * middleware does, halves the throughput).
 */
import { plainFilesJson } from "../dataset/files-digest.ts";
import { compareCodePoints } from "../formats/compat/python-json.ts";
import { EncodedJson, goJson, OrderedMap, RawJson } from "./go-json.ts";
import { caseImageRef, type CaseImageRef, normaliseRegistry, sortedFiles, type TaskSummary, taskSummary } from "./image-refs.ts";
import type { ImagesLock, Manifest, ManifestTask, TaskMetadata } from "../formats/manifest/manifest-types.ts";
import { contentSecurityPolicy } from "./html.ts";
import { FILTER_SCRIPT, type IndexRow, renderIndexPage } from "./index-page.ts";
import type { ReportTexts } from "./report-texts.ts";
import { renderTaskPage } from "./task-page.ts";

export interface CatalogData {
  manifest: Manifest;
  lock?: ImagesLock;
  registry: string;
  /** each task's metadata as written in the manifest file (compacted), served byte for byte */
  metadataText?: ReadonlyMap<ManifestTask, string>;
  /** the crash reports' text, where the catalog has the task folders (report-texts.ts) */
  reports?: ReportTexts;
}

export interface Resource {
  body: Blob;
  response: Response;
  etag: string;
  headers: Record<string, string>;
  notModifiedHeaders: Record<string, string>;
}

/** Clients may reuse a response for a minute, then revalidate it cheaply with If-None-Match. */
export const CACHE_CONTROL = "public, max-age=60";
const JSON_TYPE = "application/json";
const HTML_TYPE = "text/html; charset=utf-8";

export function resource(text: string, type: string, cacheControl = CACHE_CONTROL, extra: Record<string, string> = {}): Resource {
  // A Blob: every Response made from it (the socket's static GET and HEAD routes, each request
  // of the task routes and the app) shares its bytes; a Uint8Array body is copied into each
  // static route (2 × 65 MB more for /manifest.json at 10,000 tasks).
  const body = new Blob([text]);
  const etag = `"${new Bun.CryptoHasher("sha256").update(text).digest("base64url").slice(0, 27)}"`;
  const notModifiedHeaders = { etag, "cache-control": cacheControl };
  // An explicit length: a HEAD answered through the app (the GET's headers, no body) keeps it.
  const headers = { "content-type": type, "content-length": String(body.size), ...notModifiedHeaders, ...extra };
  // Answers are clones of one prepared Response (cheaper per request than building a new one).
  return { body, etag, notModifiedHeaders, headers, response: new Response(body, { headers }) };
}

export interface TaskResources {
  detail: Resource;
  metadata: Resource;
  /** the task's HTML page, rendered on its first request from the detail body (and kept) */
  page: () => Promise<Resource>;
}

function htmlResource(text: string, script?: string): Resource {
  return resource(text, HTML_TYPE, CACHE_CONTROL, { "content-security-policy": contentSecurityPolicy(script), "x-content-type-options": "nosniff" });
}

/**
 * A task's bodies, each rendered on its first request and kept: start-up renders none of them
 * (at 10,000 tasks that was 140 MB of bodies and their ETags, a third of the start-up), and a
 * catalog holds only the bodies asked for besides the encoded parts, which /manifest.json needs
 * anyway. A page costs a JSON.parse of the task's detail body on its first request.
 */
class LazyTask implements TaskResources {
  #detail?: Resource;
  #metadata?: Resource;
  #page?: Promise<Resource>;

  constructor(
    private readonly summary: TaskSummary,
    private readonly parts: EncodedParts,
    private readonly image: CaseImageRef,
    private readonly reports: ReadonlyMap<string, string>,
    private readonly dataset: string,
  ) {}

  get detail(): Resource {
    this.#detail ??= resource(`${withParts(this.summary, this.parts)}\n`, JSON_TYPE);
    return this.#detail;
  }

  get metadata(): Resource {
    this.#metadata ??= resource(`${this.parts.metadata.text}\n`, JSON_TYPE);
    return this.#metadata;
  }

  page(): Promise<Resource> {
    this.#page ??= this.detail.body.text().then((text) => {
      const { files, metadata, ...task } = JSON.parse(text) as TaskSummary & { files?: Record<string, string>; metadata: TaskMetadata };
      const count = Object.keys(files ?? {}).length;
      return htmlResource(renderTaskPage({ task, metadata, files: count, image: this.image, reports: this.reports, dataset: this.dataset }));
    });
    return this.#page;
  }
}

/** The fixed paths whose bodies are rendered on their first request, by the resource that answers them. */
export const LAZY_PATHS = { "/": "index", "/tasks": "tasks", "/manifest.json": "manifest" } as const;

export interface CatalogResources {
  tasks: Resource;
  byId: Map<string, TaskResources>;
  manifest: Resource;
  lock?: Resource;
  index: Resource;
  health: Resource;
  pinned: number;
}

/** A task's files map and metadata, encoded once for its detail, its metadata and /manifest.json. */
interface EncodedParts {
  files?: EncodedJson;
  metadata: EncodedJson;
}

function encodeParts(task: ManifestTask, metadata: RawJson): EncodedParts {
  // A map in order and plain ASCII: its canonical text (computed once for the lock's digest) is Go's.
  const plain = task.files ? plainFilesJson(task.files) : undefined;
  const files = plain === undefined ? sortedFiles(task.files) : undefined;
  const filesText = plain !== undefined && plain !== "{}" ? plain : files && goJson(files).slice(0, -1);
  return { files: filesText === undefined ? undefined : new EncodedJson(filesText), metadata: new EncodedJson(goJson(metadata).slice(0, -1)) };
}

/** `head` (plain JSON data, keys in order) followed by the task's files and metadata, as Go writes it. */
function withParts(head: object, { files, metadata }: EncodedParts): string {
  const start = goJson(OrderedMap.ofOrderedObject(head as Record<string, unknown>)).slice(0, -2);
  return `${start}${files ? `,"files":${files.text}` : ""},"metadata":${metadata.text}}`;
}

/**
 * `/manifest.json` (the manifest as loaded, compact, base/image unprefixed, tasks in file order),
 * rendered on its first request and kept: it is the biggest body (65 MB at 10,000 tasks) and the
 * one clients ask for least, so start-up does not wait for it. Until then only the tasks' fields
 * and their already encoded parts are held, not the parsed manifest.
 */
function lazyManifest(manifest: Manifest, parts: Map<ManifestTask, EncodedParts>): () => Resource {
  return renderOnce(manifest.dataset, manifest.version, manifest.generated_from || undefined, manifestEntries(manifest, parts));
}

type ManifestEntry = readonly [object, EncodedParts];

function manifestEntries(manifest: Manifest, parts: Map<ManifestTask, EncodedParts>): ManifestEntry[] {
  return manifest.tasks.map((t) => {
    const { id, language, project, repository, base, image, arch, checks } = t;
    return [{ id, language, project, repository, base, image, arch, checks }, parts.get(t) as EncodedParts] as const;
  });
}

/**
 * A closure made here, not in lazyManifest or buildResources: a JS closure keeps every variable of
 * its scope that any function of that scope uses, and there the parts map (keyed by the parsed
 * tasks) would keep the whole parsed manifest alive (763,000 strings at 10,000 tasks).
 */
function renderOnce(dataset: string, version: string, generated_from: unknown, given: ManifestEntry[]): () => Resource {
  let entries: ManifestEntry[] | undefined = given;
  let built: Resource | undefined;
  return () => {
    if (!built) {
      const tasks = (entries ?? []).map(([head, encoded]) => new EncodedJson(withParts(head, encoded)));
      built = resource(goJson({ dataset, version, generated_from, tasks }), JSON_TYPE);
      entries = undefined;
    }
    return built;
  };
}

function lockBody(lock: ImagesLock): string {
  const ids = Object.keys(lock.images).sort(compareCodePoints);
  return goJson({
    dataset: lock.dataset,
    version: lock.version,
    images: new OrderedMap(ids.map((id) => [id, lock.images[id]])),
  });
}

/**
 * The fixed paths with their resources, for the socket's native static routes (serve.ts); not
 * those rendered on first use (LAZY_PATHS). The Hono app answers the same paths (and everything
 * else); this table is only a faster way to them.
 */
export function fixedPaths(r: CatalogResources): Map<string, Resource> {
  const paths = new Map<string, Resource>([["/healthz", r.health]]);
  if (r.lock) paths.set("/images.lock.json", r.lock);
  return paths;
}

const NO_REPORTS: ReadonlyMap<string, string> = new Map();

export function buildResources({ manifest, lock, registry: given, metadataText, reports }: CatalogData): CatalogResources {
  const registry = normaliseRegistry(given);
  const raw = (task: ManifestTask) => new RawJson(task.metadata, metadataText?.get(task));
  // The parts first: the lock's digests then reuse each files map's text (files-digest.ts).
  const parts = new Map<ManifestTask, EncodedParts>(manifest.tasks.map((t) => [t, encodeParts(t, raw(t))]));
  const sorted = [...manifest.tasks].sort((a, b) => compareCodePoints(a.id, b.id));
  const images = new Map<string, CaseImageRef>(sorted.map((t) => [t.id, caseImageRef(manifest, t, lock, registry)]));
  const summaries = sorted.map((t) => taskSummary(t, images.get(t.id) as CaseImageRef, registry));
  const byId = new Map<string, TaskResources>();
  sorted.forEach((task, i) => {
    const reportTexts = reports?.get(task.id) ?? NO_REPORTS;
    const image = images.get(task.id) as CaseImageRef;
    byId.set(task.id, new LazyTask(summaries[i] as TaskSummary, parts.get(task) as EncodedParts, image, reportTexts, manifest.dataset));
  });
  const pinned = [...images.values()].filter((i) => i.pinned).length;
  const indexRows = sorted.map((t, i) => ({ task: summaries[i] as TaskSummary, image: images.get(t.id), type: t.metadata.type, sanitizer: t.metadata.sanitizer }));
  const { dataset, version } = manifest;
  return withLazy(
    { manifest: lazyManifest(manifest, parts), tasks: lazyTasks(summaries), index: lazyIndex({ dataset, version }, indexRows, Boolean(lock)) },
    {
      byId,
      lock: lock ? resource(lockBody(lock), JSON_TYPE) : undefined,
      health: resource(goJson({ status: "ok", dataset, version, tasks: sorted.length, pinned }), JSON_TYPE, "no-store"),
      pinned,
    },
  );
}

/**
 * `/tasks` and the HTML index, rendered on their first request (a 3.9 MB and a 5 MB body at 10,000
 * tasks, ~15% of the start-up). Made here, not in buildResources, for the reason renderOnce gives.
 */
function lazyTasks(summaries: TaskSummary[]): () => Resource {
  let built: Resource | undefined;
  return () => (built ??= resource(goJson(summaries.map((s) => OrderedMap.ofOrderedObject(s as unknown as Record<string, unknown>))), JSON_TYPE));
}

function lazyIndex(catalog: { dataset: string; version: string }, rows: IndexRow[], hasLock: boolean): () => Resource {
  let built: Resource | undefined;
  return () => (built ??= htmlResource(renderIndexPage(catalog, rows, hasLock), FILTER_SCRIPT));
}

type LazyName = "manifest" | "tasks" | "index";

/** The resources with the bodies rendered on first use as getters (made outside buildResources, see renderOnce). */
function withLazy(render: Record<LazyName, () => Resource>, rest: Omit<CatalogResources, LazyName>): CatalogResources {
  for (const [name, get] of Object.entries(render)) Object.defineProperty(rest, name, { get, enumerable: true });
  return rest as CatalogResources;
}
