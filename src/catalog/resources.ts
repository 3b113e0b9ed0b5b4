/**
 * Everything the service can answer, rendered once at start-up: bodies as bytes with their ETag
 * and headers, so a request costs a map lookup (hashing every body per request, as Hono's etag
 * middleware does, halves the throughput).
 */
import { compareCodePoints } from "../formats/python-json.ts";
import { EncodedJson, goJson, OrderedMap, RawJson } from "./go-json.ts";
import { caseImageRef, type CaseImageRef, normaliseRegistry, sortedFiles, taskSummary } from "./image-refs.ts";
import type { ImagesLock, Manifest, ManifestTask } from "../formats/manifest-types.ts";
import { renderIndexPage } from "./index-page.ts";

export interface CatalogData {
  manifest: Manifest;
  lock?: ImagesLock;
  registry: string;
  /** each task's metadata as written in the manifest file (compacted), served byte for byte */
  metadataText?: ReadonlyMap<ManifestTask, string>;
}

export interface Resource {
  body: Uint8Array;
  etag: string;
  headers: Record<string, string>;
  notModifiedHeaders: Record<string, string>;
}

/** Clients may reuse a response for a minute, then revalidate it cheaply with If-None-Match. */
export const CACHE_CONTROL = "public, max-age=60";
const JSON_TYPE = "application/json";

export function resource(text: string, type: string, cacheControl = CACHE_CONTROL): Resource {
  const body = new TextEncoder().encode(text);
  const etag = `"${new Bun.CryptoHasher("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const notModifiedHeaders = { etag, "cache-control": cacheControl };
  // An explicit length: a HEAD answered through the app (the GET's headers, no body) keeps it.
  const headers = { "content-type": type, "content-length": String(body.length), ...notModifiedHeaders };
  return { body, etag, notModifiedHeaders, headers };
}

export interface TaskResources {
  detail: Resource;
  metadata: Resource;
}

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
  const files = sortedFiles(task.files);
  return { files: files && new EncodedJson(goJson(files).slice(0, -1)), metadata: new EncodedJson(goJson(metadata).slice(0, -1)) };
}

/** `/manifest.json`: the manifest as loaded, compact, base/image unprefixed, tasks in file order. */
function manifestBody(manifest: Manifest, parts: Map<ManifestTask, EncodedParts>): string {
  return goJson({
    dataset: manifest.dataset,
    version: manifest.version,
    generated_from: manifest.generated_from ? manifest.generated_from : undefined,
    tasks: manifest.tasks.map((t) => {
      const { files, metadata } = parts.get(t) as EncodedParts;
      const { id, language, project, repository, base, image, arch, checks } = t;
      return { id, language, project, repository, base, image, arch, checks, files, metadata };
    }),
  });
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
 * The fixed paths with their resources, for the socket's native static routes (serve.ts). The Hono
 * app answers the same paths (and everything else); this table is only a faster way to them.
 */
export function fixedPaths(r: CatalogResources): Map<string, Resource> {
  const paths = new Map<string, Resource>([
    ["/", r.index],
    ["/healthz", r.health],
    ["/tasks", r.tasks],
    ["/manifest.json", r.manifest],
  ]);
  if (r.lock) paths.set("/images.lock.json", r.lock);
  return paths;
}

export function buildResources({ manifest, lock, registry: given, metadataText }: CatalogData): CatalogResources {
  const registry = normaliseRegistry(given);
  const raw = (task: ManifestTask) => new RawJson(task.metadata, metadataText?.get(task));
  const sorted = [...manifest.tasks].sort((a, b) => compareCodePoints(a.id, b.id));
  const images = new Map<string, CaseImageRef>(sorted.map((t) => [t.id, caseImageRef(manifest, t, lock, registry)]));
  const summaries = sorted.map((t) => taskSummary(t, images.get(t.id) as CaseImageRef, registry));
  const parts = new Map<ManifestTask, EncodedParts>(manifest.tasks.map((t) => [t, encodeParts(t, raw(t))]));
  const byId = new Map<string, TaskResources>();
  sorted.forEach((task, i) => {
    const { files, metadata } = parts.get(task) as EncodedParts;
    byId.set(task.id, {
      detail: resource(goJson({ ...summaries[i], files, metadata }), JSON_TYPE),
      metadata: resource(`${metadata.text}\n`, JSON_TYPE),
    });
  });
  const pinned = [...images.values()].filter((i) => i.pinned).length;
  return {
    tasks: resource(goJson(summaries), JSON_TYPE),
    byId,
    manifest: resource(manifestBody(manifest, parts), JSON_TYPE),
    lock: lock ? resource(lockBody(lock), JSON_TYPE) : undefined,
    index: resource(renderIndexPage(manifest, summaries, images, Boolean(lock)), "text/html; charset=utf-8"),
    health: resource(
      goJson({ status: "ok", dataset: manifest.dataset, version: manifest.version, tasks: sorted.length, pinned }),
      JSON_TYPE,
      "no-store",
    ),
    pinned,
  };
}
