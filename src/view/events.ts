/**
 * `/api/events`: server-sent events fed by the jobs' own files. While anyone listens, a timer looks
 * at each job's files (their sizes and times: job-state.ts's stamp) twice a second; when a job's
 * change, or a job appears, each listener gets one `update` event whose `html` holds the fragments
 * of its page (the index's jobs table, or a job page's progress, scores, matrix and trials, for
 * that page's filters), rendered by the same functions as the page. A listener also gets one update
 * as soon as it connects, so nothing between the page and the connection is missed.
 */
import { collectionFragments } from "./collection-page.ts";
import { jobCollection } from "./collection.ts";
import { jobsTable } from "./index-page.ts";
import type { Library } from "./library.ts";
import { type Filters, parseFilters } from "./query.ts";

type Interest = { kind: "index" } | { kind: "job"; key: string; filters: Filters };

interface Listener {
  interest: Interest;
  send(text: string): void;
}

const encoder = new TextEncoder();
export const TICK_MS = 500;
const PING_MS = 15_000;

export class Events {
  private readonly listeners = new Set<Listener>();
  private readonly stamps = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private pings = 0;

  constructor(private readonly library: Library) {}

  private fragments(interest: Interest): Record<string, string> | undefined {
    if (interest.kind === "index") return { "jobs-box": jobsTable(this.library) };
    const job = this.library.jobKeys().get(interest.key);
    return job ? collectionFragments(jobCollection(this.library, interest.key, job), interest.filters) : undefined;
  }

  private push(l: Listener, changed: string[]): void {
    const html = this.fragments(l.interest);
    if (html) l.send(`event: update\ndata: ${JSON.stringify({ changed, html })}\n\n`);
  }

  /** Looks at every job's files once; sends an update to whoever a change concerns. */
  tick(): void {
    const changed: string[] = [];
    const keys = this.library.jobKeys();
    for (const [key, job] of keys) {
      const stamp = job.stamp();
      if (this.stamps.get(key) !== stamp) changed.push(key);
      this.stamps.set(key, stamp);
    }
    for (const key of [...this.stamps.keys()]) if (!keys.has(key)) this.stamps.delete(key);
    if (++this.pings * TICK_MS >= PING_MS) {
      this.pings = 0;
      for (const l of this.listeners) l.send(": ping\n\n");
    }
    if (changed.length === 0) return;
    for (const l of this.listeners) if (l.interest.kind === "index" || changed.includes(l.interest.key)) this.push(l, changed);
  }

  /** The event stream for a page: `?index=1`, or `?job=KEY` with the page's filters. */
  stream(query: URLSearchParams, signal: AbortSignal): Response {
    const job = query.get("job");
    const interest: Interest = job === null ? { kind: "index" } : { kind: "job", key: job, filters: parseFilters(query) };
    let listener: Listener | undefined;
    const stop = () => {
      if (listener) this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        listener = {
          interest,
          send: (text) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              stop();
            }
          },
        };
        this.listeners.add(listener);
        listener.send("retry: 2000\n\n");
        if (this.timer === undefined) {
          for (const [key, j] of this.library.jobKeys()) this.stamps.set(key, j.stamp());
          this.timer = setInterval(() => this.tick(), TICK_MS);
        }
        this.push(listener, []);
      },
      cancel: stop,
    });
    signal.addEventListener("abort", stop, { once: true });
    return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }
}
