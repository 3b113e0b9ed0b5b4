/**
 * `ssebench view` as a Hono app (no socket: command.ts binds it; tests call app.request too).
 *
 * GET / (jobs and folders), /jobs/KEY and /folders/N (scores, matrix, filters, trials),
 * …/compare?a=&b= (two agents side by side), /runs/ROOT/PATH (a trial; `?file=` a file of it),
 * /jobs/KEY/logs/NAME (a trial run's log), /api/events (server-sent events). Pages carry a policy
 * that runs only their own script; files are served as text or downloads, sandboxed. When the
 * viewer listens on a loopback address, a request must name that address (or localhost) as its
 * Host, so a web page elsewhere cannot read the results through a rebound DNS name.
 */
import { join } from "node:path";
import { Hono } from "hono";
import type { Context } from "hono";
import { comparePage } from "./compare-page.ts";
import { collectionPage } from "./collection-page.ts";
import { collectionAt } from "./collection.ts";
import { FILE_POLICY, PAGE_POLICY } from "./client.ts";
import type { Events } from "./events.ts";
import { fileBelow, looksBinary, RAW_MAX, runFolder } from "./files.ts";
import { indexPage } from "./index-page.ts";
import type { Library } from "./library.ts";
import { msg } from "./messages.ts";
import { parseFilters } from "./query.ts";
import { runPage } from "./run-page.ts";

const COMMON = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store" };

function html(body: string): Response {
  return new Response(body, { headers: { ...COMMON, "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_POLICY } });
}

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...COMMON, "content-type": "text/plain; charset=utf-8", "content-security-policy": FILE_POLICY } });
}

/** A file as it is: text shown as text, anything else a download; never rendered as a page. */
function raw(head: NonNullable<ReturnType<typeof fileBelow>>, name: string): Response {
  if (head.cut) return text(413, msg.fileTooLarge(head.size));
  const binary = looksBinary(head.bytes);
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(head.bytes, {
    headers: {
      ...COMMON,
      "content-type": binary ? "application/octet-stream" : "text/plain; charset=utf-8",
      "content-disposition": `${binary ? "attachment" : "inline"}; filename="${safeName}"`,
      "content-security-policy": FILE_POLICY,
    },
  });
}

/** The path's segments after `prefix`, percent-decoded; null when one does not decode. */
function segmentsAfter(c: Context, prefix: string): string[] | null {
  const rest = c.req.path.slice(prefix.length).split("/");
  try {
    return rest.map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

export interface ViewAppOptions {
  library: Library;
  events: Events;
  /** whether a Host header value is answered (default: any) */
  allowHost?: (host: string) => boolean;
  /** called for each event stream's request (the server lifts its idle time-out for it) */
  onStream?: (request: Request) => void;
  /** an unexpected error (a bug): said once, answered 500 */
  onError?: (error: unknown) => void;
}

export function createViewApp({ library, events, allowHost = () => true, onStream, onError }: ViewAppOptions): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    if (!allowHost((c.req.header("host") ?? "").toLowerCase())) return text(403, msg.badHost);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return new Response(msg.methodNotAllowed, { status: 405, headers: { ...COMMON, allow: "GET, HEAD" } });
    await next();
  });
  const query = (c: Context) => new URL(c.req.url).searchParams;

  app.get("/", () => html(indexPage(library)));
  app.get("/healthz", () => text(200, "ok\n"));
  app.get("/api/events", (c) => {
    onStream?.(c.req.raw);
    return events.stream(query(c), c.req.raw.signal);
  });
  for (const kind of ["jobs", "folders"] as const) {
    app.get(`/${kind}/:key`, (c) => {
      const col = collectionAt(library, kind, c.req.param("key"));
      return col ? html(collectionPage(col, parseFilters(query(c)))) : text(404, msg.pageNotFound);
    });
    app.get(`/${kind}/:key/compare`, (c) => {
      const col = collectionAt(library, kind, c.req.param("key"));
      const q = query(c);
      if (!col) return text(404, msg.pageNotFound);
      return html(comparePage(col, q.get("a") ?? "", q.get("b") ?? "", (q.get("task") ?? "").trim(), q.get("differing") === "1"));
    });
  }
  app.get("/jobs/:key/logs/:name", (c) => {
    const job = library.jobKeys().get(c.req.param("key"));
    const name = c.req.param("name");
    const head = job ? fileBelow(join(job.dir, "logs"), [name], RAW_MAX) : null;
    return head ? raw(head, name) : text(404, msg.fileNotFound);
  });
  app.get("/runs/:root/*", (c) => {
    const root = library.root(c.req.param("root"));
    const segments = root ? segmentsAfter(c, `/runs/${root.id}/`) : null;
    const dir = root && segments ? runFolder(library, root, segments) : null;
    if (!root || !segments || !dir) return text(404, msg.runNotFound);
    const file = query(c).get("file");
    if (file === null) return html(runPage(library, root, segments.join("/"), dir));
    const head = fileBelow(dir, file.split("/"), RAW_MAX);
    return head ? raw(head, file.split("/").pop() as string) : text(404, msg.fileNotFound);
  });
  app.notFound(() => text(404, msg.pageNotFound));
  app.onError((error) => {
    onError?.(error);
    return text(500, "500 internal error\n");
  });
  return app;
}
