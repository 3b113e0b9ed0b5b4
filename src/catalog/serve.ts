/**
 * `ssebench catalog serve`: loads the manifest (and lock) once, binds the Hono app to a socket with
 * Bun.serve, logs one line, and on SIGTERM/SIGINT stops accepting, lets requests in flight finish
 * (up to DRAIN_TIMEOUT_MS, as the reference's 5 s shutdown) and resolves with exit code 0.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describeCause, ExitCode, UserError } from "../errors.ts";
import type { ImagesLock, Manifest, ManifestTask } from "../formats/manifest/manifest-types.ts";
import { createCatalogApp, respond } from "./app.ts";
import { DEFAULT_REGISTRY } from "./image-refs.ts";
import { messages } from "./messages.ts";
import { localDataset } from "./dataset-files.ts";
import { readLocation } from "./read-location.ts";
import type { ReportTexts } from "./report-texts.ts";
import { cleanPath, escapePath, goTarget, movedPermanentlyBody } from "./request-target.ts";
import { buildResources, type CatalogResources, fixedPaths, LAZY_PATHS, type Resource, type TaskResources } from "./resources.ts";

export const DRAIN_TIMEOUT_MS = 5_000;

export interface ServeOptions {
  /** manifest file or dataset folder; undefined: the built-in demo manifest */
  manifest?: string;
  /** images lock; undefined: images.lock.json beside the manifest if it is there */
  lock?: string;
  registry: string;
  port: number;
  host: string;
}

export const DEFAULT_PORT = 8080;
export const ALL_INTERFACES = "0.0.0.0";

/** A flag beats its environment variable, which beats the default; blank counts as unset. */
function setting(flag: string | undefined, env: string | undefined): string | undefined {
  const value = flag ?? env;
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function parsePort(value: string, fromFlag: boolean): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (port >= 0 && port <= 65535) return port;
  const problem = messages.badPort(fromFlag ? "--port" : "SSEBENCH_CATALOG_PORT", value);
  // A bad flag is a malformed command line (exit 2); a bad environment is a failure (exit 1).
  throw fromFlag ? new UserError(`ssebench catalog serve: ${problem}`, ExitCode.usage) : new UserError(problem);
}

export interface ServeFlags {
  manifest?: string;
  lock?: string;
  registry?: string;
  port?: string;
  host?: string;
}

/** `catalog serve`'s flags and environment, resolved to options (spec §5.1 plus --host). */
export function resolveServeOptions(flags: ServeFlags, env: Record<string, string | undefined>): ServeOptions {
  const portText = setting(flags.port, env.SSEBENCH_CATALOG_PORT);
  return {
    manifest: setting(flags.manifest, env.SSEBENCH_MANIFEST),
    lock: setting(flags.lock, env.SSEBENCH_IMAGES_LOCK),
    registry: setting(flags.registry, env.SSEBENCH_REGISTRY) ?? DEFAULT_REGISTRY,
    port: portText === undefined ? DEFAULT_PORT : parsePort(portText, setting(flags.port, undefined) !== undefined),
    host: setting(flags.host, undefined) ?? ALL_INTERFACES,
  };
}

export interface ServedCatalog {
  manifest: Manifest;
  lock?: ImagesLock;
  source: string;
  /** each task's metadata as written in the file (see raw-metadata.ts) */
  metadataText?: Map<ManifestTask, string>;
  /** the crash reports' text from the task folders beside the manifest */
  reports?: ReportTexts;
}

async function readOrFail(path: string, cannotRead: (loc: string, cause: string) => string, within?: string): Promise<string> {
  const read = await readLocation(path, undefined, within);
  if (!read.ok) throw new UserError(cannotRead(path, read.cause));
  return read.text;
}

export async function loadServedCatalog(options: Pick<ServeOptions, "manifest" | "lock">): Promise<ServedCatalog> {
  const { parseManifest } = await import("../formats/manifest/manifest.ts");
  const { parseImagesLock } = await import("../formats/manifest/images-lock.ts");
  let manifest: Manifest;
  let source: string;
  let lockPath = options.lock;
  let lockWithin: string | undefined;
  let lock: ImagesLock | undefined;
  let metadataText: Map<ManifestTask, string> | undefined;
  let reports: ReportTexts;
  if (options.manifest === undefined) {
    const builtIn = (await import("./embedded.ts")).embeddedCatalog();
    ({ manifest, lock } = builtIn);
    source = builtIn.manifestLocation;
    reports = (await import("./embedded-reports.ts")).embeddedReportTexts();
  } else {
    const dataset = await localDataset(options.manifest);
    source = dataset.manifestLocation;
    // Served as written: the reference passes metadata (and every other value) through untouched.
    const text = await readOrFail(source, messages.cannotReadCatalog, dataset.manifestWithin);
    manifest = await parseManifest(text, source, { asWritten: true });
    const texts = (await import("./raw-metadata.ts")).metadataTexts(text, manifest);
    metadataText = new Map(manifest.tasks.flatMap((task, i) => (texts[i] === undefined ? [] : [[task, texts[i] as string] as const])));
    reports = await (await import("./report-texts.ts")).readReportTexts(manifest.tasks, dataset.folder);
    const beside = join(dataset.folder, "images.lock.json");
    if (lockPath === undefined && (await stat(beside).catch(() => undefined))?.isFile()) {
      lockPath = beside;
      // A lock found beside the manifest is one of the dataset's files; a named one is the user's.
      lockWithin = dataset.folder;
    }
  }
  if (lockPath !== undefined) {
    lock = await parseImagesLock(await readOrFail(lockPath, messages.cannotReadLock, lockWithin), lockPath);
  }
  return { manifest, lock, source, metadataText, reports };
}

function staticResponse(res: Resource): Response {
  return new Response(res.body, { headers: res.headers });
}

const TASK_PATH = /^\/tasks\/([^/]+)(\/metadata)?$/;

/** The task a raw request path names (`/tasks/{id}` or `/tasks/{id}/metadata`), percent-decoded. */
function taskOfPath(resources: CatalogResources, pathname: string): TaskResources | undefined {
  const match = TASK_PATH.exec(pathname);
  if (!match) return undefined;
  try {
    return resources.byId.get(decodeURIComponent(match[1] as string));
  } catch {
    return undefined;
  }
}

/**
 * The socket's routes: Bun's native static routes for the fixed paths rendered at start-up (served
 * without entering JS, ETag and 304 included), a function route for those rendered on their first
 * request (`/`, `/tasks`, `/manifest.json`), one parameterised route each for `/tasks/{id}` and its metadata (a
 * map lookup: per-task static routes made start-up grow about quadratically with the catalog, 9–15 s
 * at 10,000 tasks), the Hono app for the rest (unknown ids, other paths, errors, 405s).
 * Before the app, what the reference's Go server does with the raw request: two Host headers (Bun
 * joins them with ", ") are 400; a path that is not clean is redirected (301) to its clean form; a
 * `#` stays part of the path. Bun has already dropped dot segments from `request.url`, so a GET or
 * HEAD that reaches `fetch` on a path the routes answer was spelled otherwise (`/./tasks`,
 * `/x/../tasks`) and is redirected too. (Bun also reports a method it does not know, say `FOO`, as
 * GET: such a request gets the same redirect, where the reference answers 405.) The task routes
 * match the raw path, so an id they do not know (`..`, `x#frag`) takes the same way.
 */
export function socketRoutes(resources: CatalogResources, fetch: (request: Request) => Response | Promise<Response>) {
  const fixed = fixedPaths(resources);
  const routes: Bun.Serve.Routes<unknown, string> = {};
  for (const [path, res] of fixed) routes[path] = { GET: staticResponse(res), HEAD: staticResponse(res) };
  const answered = (pathname: string) => fixed.has(pathname) || Object.hasOwn(LAZY_PATHS, pathname) || taskOfPath(resources, pathname) !== undefined;
  const handle = (request: Request): Response | Promise<Response> => {
    // (Bun itself refuses an HTTP/1.1 request without Host; HTTP/1.0 may omit it.)
    if (request.headers.get("host")?.includes(",")) return badRequest(messages.tooManyHosts);
    const url = new URL(request.url);
    const target = goTarget(url, request.url);
    if (target === undefined) return fetch(request);
    const clean = cleanPath(target.path);
    const getOrHead = request.method === "GET" || request.method === "HEAD";
    const respelled = getOrHead && !target.fragment && answered(url.pathname);
    if (clean !== target.path || respelled) return redirect(escapePath(clean) + target.search, request.method);
    if (target.fragment) return fetch(new Request(`${url.origin}${escapePath(target.path)}${target.search}`, request));
    return fetch(request);
  };
  const taskRoute = (pick: (task: TaskResources) => Resource): TaskHandler => {
    return (request) => {
      const task = resources.byId.get(request.params.id ?? "");
      if (!task || request.headers.get("host")?.includes(",")) return handle(request);
      return respond(pick(task), request.headers.get("if-none-match"));
    };
  };
  const detail = taskRoute((task) => task.detail);
  const metadata = taskRoute((task) => task.metadata);
  // Function routes for the bodies rendered on their first request (resources.ts).
  for (const [path, name] of Object.entries(LAZY_PATHS)) {
    const lazy = (request: Request) =>
      request.headers.get("host")?.includes(",") ? handle(request) : respond(resources[name], request.headers.get("if-none-match"));
    routes[path] = { GET: lazy, HEAD: lazy };
  }
  routes["/tasks/:id"] = { GET: detail, HEAD: detail };
  routes["/tasks/:id/metadata"] = { GET: metadata, HEAD: metadata };
  return { routes, fetch: handle };
}

type TaskHandler = (request: Bun.BunRequest<string>) => Response | Promise<Response>;

/** Go's RFC 9112 answer to a request without exactly one Host header (it closes the connection). */
function badRequest(problem: string): Response {
  return new Response(`400 Bad Request: ${problem}`, {
    status: 400,
    statusText: `Bad Request: ${problem}`,
    headers: { "content-type": "text/plain; charset=utf-8", connection: "close" },
  });
}

/** Go's http.Redirect with 301: an HTML body for GET, its headers (and length) for HEAD. */
function redirect(location: string, method: string): Response {
  if (method !== "GET" && method !== "HEAD") return new Response(null, { status: 301, headers: { location, "content-length": "0" } });
  const body = new TextEncoder().encode(movedPermanentlyBody(location));
  const headers = { location, "content-type": "text/html; charset=utf-8", "content-length": String(body.length) };
  return new Response(method === "HEAD" ? null : body, { status: 301, headers });
}

export interface Logger {
  info(message: string): void;
}

/** Serves until SIGTERM or SIGINT; resolves with the exit code once requests in flight are done. */
export async function serveCatalog(options: ServeOptions, log: Logger): Promise<number> {
  // From start to stop there is always a listener for both signals: loading takes a moment
  // (validation), a container's PID 1 ignores a signal without one, and a moment with none would
  // let a signal kill us with 128+n (a client that signals as soon as it reads the start line).
  let early: NodeJS.Signals | undefined;
  const onEarlySignal = (signal: NodeJS.Signals) => void (early ??= signal);
  const listen = (handler: (signal: NodeJS.Signals) => void, on: boolean) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) on ? process.on(signal, handler) : process.off(signal, handler);
  };
  listen(onEarlySignal, true);
  let server: ReturnType<typeof Bun.serve>;
  let startLine: (url: string) => string;
  try {
    const catalog = await loadServedCatalog(options);
    if (early) {
      listen(onEarlySignal, false);
      log.info(messages.stopping(early));
      return 0;
    }
    const { metadataText, reports } = catalog;
    const data = { manifest: catalog.manifest, lock: catalog.lock, registry: options.registry, metadataText, reports };
    const resources = buildResources(data);
    const app = createCatalogApp(data, resources);
    const { manifest, source } = catalog;
    const [count, version, pinned] = [manifest.tasks.length, manifest.version, resources.pinned];
    startLine = (url) => messages.serving(count, version, source, url, pinned);
    try {
      // development:false alone turns SO_REUSEPORT on, which lets a second server share a busy port.
      const socket = { port: options.port, hostname: options.host, development: false, reusePort: false };
      server = Bun.serve({ ...socketRoutes(resources, app.fetch), ...socket });
    } catch (error) {
      throw new UserError(messages.cannotListen(options.host, options.port, describeCause(error)));
    }
  } catch (error) {
    listen(onEarlySignal, false);
    throw error;
  }
  // Only the prepared bodies stay: give the parsed manifest back now (a 10,000-task catalog leaves
  // several hundred MB of garbage behind; this is RSS the service would otherwise hold).
  Bun.gc(true);
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${server.port}`;
  return new Promise<number>((resolve) => {
    const stop = async (signal: NodeJS.Signals) => {
      listen(stop, false);
      log.info(messages.stopping(signal));
      const force = setTimeout(() => void server.stop(true), DRAIN_TIMEOUT_MS);
      await server.stop();
      clearTimeout(force);
      resolve(0);
    };
    listen(stop, true);
    listen(onEarlySignal, false);
    log.info(startLine(url));
    if (early) void stop(early);
  });
}
