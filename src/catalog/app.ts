/**
 * The catalog service as a pure Hono app (no socket: serve.ts binds it; tests call app.request).
 *
 * Reference routes (spec §5.3): GET /tasks, /tasks/{id}, /tasks/{id}/metadata, /manifest.json,
 * compact JSON bodies; `task '<id>' not found` for unknown ids, `404 page not found` for other
 * paths, 405 with Allow for other methods on known paths. Beyond it: /images.lock.json (so clients
 * can pin by digest through the service), /healthz, an HTML index at / and a page per task at
 * /html/tasks/{id} (docs/catalog.md), ETag + Cache-Control with
 * 304 on If-None-Match, and HEAD (Hono answers HEAD with the GET route, body dropped).
 *
 * Every body is rendered once (resources.ts) and looked up by id: a request path can only
 * ever select one of those prepared bodies, never touch the file system.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { messages } from "./messages.ts";
import { buildResources, type CatalogData, type CatalogResources, type Resource } from "./resources.ts";

const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" };
const METHOD_NOT_ALLOWED_HEADERS = { ...TEXT_HEADERS, allow: "GET, HEAD" };

/** True when an If-None-Match header value names this ETag (weak comparison, as RFC 9110 asks). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  for (const candidate of ifNoneMatch.split(",")) {
    const tag = candidate.trim();
    if (tag === etag || (tag.startsWith("W/") && tag.slice(2) === etag)) return true;
  }
  return false;
}

/** A prepared resource as the answer to a GET/HEAD with this If-None-Match header (304 or 200). */
export function respond(res: Resource, ifNoneMatch: string | null | undefined): Response {
  if (ifNoneMatch && etagMatches(ifNoneMatch, res.etag)) {
    return new Response(null, { status: 304, headers: res.notModifiedHeaders });
  }
  return res.response.clone() as Response;
}

function send(c: Context, res: Resource): Response {
  return respond(res, c.req.header("if-none-match"));
}

/** A text answer whose headers carry its length, so HEAD (the GET's headers, no body) has it too. */
function text(status: number, body: string, headers: Record<string, string> = TEXT_HEADERS): Response {
  const bytes = new TextEncoder().encode(body);
  return new Response(bytes, { status, headers: { ...headers, "content-length": String(bytes.length) } });
}

export function createCatalogApp(data: CatalogData, r: CatalogResources = buildResources(data)): Hono {
  const app = new Hono();
  const taskNotFound = (id: string) => text(404, messages.taskNotFound(id));

  const routes: [string, (c: Context) => Response | Promise<Response>][] = [
    ["/", (c) => send(c, r.index)],
    ["/healthz", (c) => send(c, r.health)],
    ["/tasks", (c) => send(c, r.tasks)],
    ["/manifest.json", (c) => send(c, r.manifest)],
    [
      "/tasks/:id",
      (c) => {
        const id = c.req.param("id") ?? "";
        const task = r.byId.get(id);
        return task ? send(c, task.detail) : taskNotFound(id);
      },
    ],
    [
      "/tasks/:id/metadata",
      (c) => {
        const id = c.req.param("id") ?? "";
        const task = r.byId.get(id);
        return task ? send(c, task.metadata) : taskNotFound(id);
      },
    ],
    [
      "/html/tasks/:id",
      async (c) => {
        const id = c.req.param("id") ?? "";
        const task = r.byId.get(id);
        return task ? send(c, await task.page()) : taskNotFound(id);
      },
    ],
  ];
  const lock = r.lock;
  if (lock) routes.push(["/images.lock.json", (c) => send(c, lock)]);

  for (const [path, handler] of routes) {
    app.get(path, handler);
    app.all(path, () => text(405, messages.methodNotAllowed, METHOD_NOT_ALLOWED_HEADERS));
  }
  app.notFound(() => text(404, messages.pageNotFound));
  app.onError(() => text(500, "internal error\n"));
  return app;
}
