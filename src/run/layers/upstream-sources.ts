/**
 * Pinned upstream inputs of a case image (datasets/debian: Debian source packages). Case images
 * build with no network, so the files a task's `upstream/sources.yaml` lists are downloaded on the
 * host into a content-addressed cache (`$SSEBENCH_SOURCES_CACHE/sha256/<hex>`, default
 * /var/cache/ssebench/sources), checked against their pinned sha256, and put beside sources.yaml in
 * a staged copy of the task folder that is the build context. The task folder is never written to.
 */
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeCause, UserError } from "../../errors.ts";
import { checkUpstreamSources, type PinnedFile, type SourcesDocument } from "../../formats/upstream-sources/upstream-sources-check.ts";
import type { TaskDates } from "../../formats/run/summary.ts";
import { msg } from "../messages.ts";

export const SOURCES_FILE = join("upstream", "sources.yaml");
const DOWNLOAD_TIMEOUT_MS = 300_000;

export type { PinnedFile };

export interface PinnedSources extends SourcesDocument {
  /** the file, as a path for messages */
  file: string;
}

export function sourcesCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SSEBENCH_SOURCES_CACHE || "/var/cache/ssebench/sources";
}

/** Reads `<folder>/upstream/sources.yaml`; undefined when the task has none. */
export async function readPinnedSources(folder: string): Promise<PinnedSources | undefined> {
  const file = join(folder, SOURCES_FILE);
  if (!existsSync(file)) return undefined;
  const { readYamlFile } = await import("../../dataset/yaml-file.ts");
  const read = readYamlFile(file);
  if (!read.ok) throw new UserError(msg.sourcesInvalid(file, read.cause));
  return checkPinnedSources(file, read.data);
}

/**
 * The days of the task's vulnerability from `<folder>/upstream/sources.yaml`, for the run's record
 * (summary.json provenance.task_dates, which `results --split-by date` reads). Nulls when the run
 * has no task folder (an image pulled by digest), the task pins no sources, or the file is not valid
 * (the build, not the record, says so).
 */
export async function readTaskDates(folder: string | undefined): Promise<TaskDates> {
  const none = { published: null, fixed: null };
  if (folder === undefined || !existsSync(join(folder, SOURCES_FILE))) return none;
  const { readYamlFile } = await import("../../dataset/yaml-file.ts");
  const read = readYamlFile(join(folder, SOURCES_FILE));
  const checked = read.ok ? checkUpstreamSources(read.data) : undefined;
  return checked?.ok ? { published: checked.value.published, fixed: checked.value.fixed } : none;
}

/** The checked form of a parsed sources.yaml (the format: src/formats/upstream-sources/upstream-sources-check.ts); its first problem otherwise. */
export function checkPinnedSources(file: string, data: unknown): PinnedSources {
  const checked = checkUpstreamSources(data);
  if (!checked.ok) throw new UserError(msg.sourcesInvalid(file, checked.problems[0] as string));
  return { file, ...checked.value };
}

export type Fetch = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

export interface FetchOptions {
  cacheDir: string;
  fetch?: Fetch;
  signal?: AbortSignal;
  /** called before each download (not for cache hits) */
  onDownload?: (file: PinnedFile) => void;
}

const cachePath = (dir: string, sha256: string) => join(dir, "sha256", sha256);

/** Every pinned file in the cache, downloading the missing ones; returns their cache paths by name. */
export async function fetchPinnedSources(pins: PinnedSources, opts: FetchOptions): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const file of pins.files) {
    const path = cachePath(opts.cacheDir, file.sha256);
    if (!existsSync(path)) {
      opts.onDownload?.(file);
      await download(pins, file, path, opts);
    }
    paths.set(file.name, path);
  }
  return paths;
}

async function download(pins: PinnedSources, file: PinnedFile, path: string, opts: FetchOptions): Promise<void> {
  const fetcher = opts.fetch ?? ((url, init) => fetch(url, { ...init, redirect: "follow" }));
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let bytes: Uint8Array;
  try {
    const response = await fetcher(file.url, { signal });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw new UserError(msg.sourceGone(pins.file, pins.package, pins.version, file.url));
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new UserError(msg.sourceDownloadFailed(pins.file, file.url, `HTTP ${response.status}`));
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (cause) {
    if (cause instanceof UserError) throw cause;
    const detail = timeout.aborted ? `no answer in ${DOWNLOAD_TIMEOUT_MS / 1000}s` : describeCause(cause);
    throw new UserError(msg.sourceDownloadFailed(pins.file, file.url, detail));
  }
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== file.sha256) throw new UserError(msg.sourceHashMismatch(pins.file, file.url, actual, file.sha256));
  // Written under a temporary name and renamed: a cache entry is always whole and checked.
  const partial = `${path}.${process.pid}.partial`;
  try {
    mkdirSync(join(opts.cacheDir, "sha256"), { recursive: true });
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch (cause) {
    try {
      rmSync(partial, { force: true });
    } catch {
      // no partial file was made (the folder itself could not be): nothing to remove
    }
    throw new UserError(msg.sourceCacheUnwritable(opts.cacheDir, describeCause(cause)));
  }
}

/** A checked cache entry: a file changed after it was cached is a mismatch, not a silent input. */
function checkCached(pins: PinnedSources, file: PinnedFile, path: string): void {
  const actual = createHash("sha256").update(readFileSync(path)).digest("hex");
  if (actual !== file.sha256) throw new UserError(msg.sourceCacheCorrupt(path, file.url, actual, file.sha256));
}

export interface StagedContext {
  context: string;
  cleanup: () => void;
}

/**
 * The build context of a task with pinned sources: a copy of the folder with each pinned file
 * (hard-linked from the cache when it can be) in upstream/. Undefined when the folder has no
 * sources.yaml, so other tasks build from their own folder as before.
 */
export async function stageUpstreamContext(folder: string, opts: FetchOptions): Promise<StagedContext | undefined> {
  const pins = await readPinnedSources(folder);
  if (!pins) return undefined;
  const paths = await fetchPinnedSources(pins, opts);
  const context = mkdtempSync(join(tmpdir(), "ssebench-case-context-"));
  try {
    cpSync(folder, context, { recursive: true, dereference: false });
    for (const file of pins.files) {
      const from = paths.get(file.name) as string;
      checkCached(pins, file, from);
      const to = join(context, "upstream", file.name);
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  } catch (error) {
    rmSync(context, { recursive: true, force: true });
    throw error;
  }
  return { context, cleanup: () => rmSync(context, { recursive: true, force: true }) };
}
