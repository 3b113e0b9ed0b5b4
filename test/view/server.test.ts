/**
 * `ssebench view` (the compiled binary) over real HTTP: its pages and answers, and the walls around
 * the results folders: only the run folders the library knows, nothing through a link, nothing
 * outside, files as text or downloads under a sandboxing policy, hosts other than its own refused,
 * and the command line's errors.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { rawRequest } from "../catalog/server-process.ts";
import { DETAILED, SIDECAR, SOLO, writeViewFixture } from "./fixtures.ts";
import { type RunningView, startView } from "./view-process.ts";

setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-view-");
const root = join(tmp.path, "results");
let view: RunningView;

beforeAll(async () => {
  mkdirSync(root);
  writeViewFixture(root);
  view = await startView(["--results", root, root]);
});
afterAll(async () => {
  await view.stop();
  tmp.cleanup();
});

const get = (path: string, init?: RequestInit) => fetch(`${view.url}${path}`, init);
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ");

describe("pages", () => {
  test("the start line names the jobs, the folder and the address; / lists the jobs with their progress", async () => {
    expect(view.log[0]).toBe(`Serving 2 jobs and 1 folder of runs at ${view.url} (Ctrl-C stops)`);
    const r = await get("/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toStartWith("default-src 'none'; script-src 'sha256-");
    const jobs = text(/<table id="jobs">[^]*?<\/table>/.exec(await r.text())?.[0] ?? "");
    expect(jobs).toContain(" night synthetic@v1 16/16 ");
    expect(jobs).toContain(" tricky synthetic@v1 4/4 4 0 0 100.0% $0.0000 finished ");
  });

  test("a job's page: scores, matrix and trials; filters by URL; a folder's page scans its runs", async () => {
    const page = await (await get("/jobs/night")).text();
    expect(page).toContain('<table id="summary">');
    expect(page).toContain('<table id="heatmap">');
    expect(text(page)).toContain("16 trials");
    const filtered = await (await get("/jobs/night?agent=agent-1&grade=failed")).text();
    const rows = [...(/<table id="trials">([^]*?)<\/table>/.exec(filtered)?.[1] ?? "").matchAll(/<tr><td>([^]*?)<\/tr>/g)].map((m) => text(m[1] ?? ""));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/ agent-1\/model-1 \d failed /);
    const folder = await (await get("/folders/0")).text();
    // Every run below the folder: the two jobs' 20 and the solo run (linked folders are not entered).
    expect(text(folder)).toContain("21 trials");
    expect(folder).toContain(`href="/runs/0/${SOLO}"`);
  });

  test("two agents side by side: each task's trials and who resolved it", async () => {
    const page = await (await get("/jobs/night/compare?a=agent-0%2Fmodel-0&b=agent-1%2Fmodel-1")).text();
    const table = /<table id="compare">([^]*?)<\/table>/.exec(page)?.[1] ?? "";
    const rows = table.split("<tr>").slice(2).map((row) => [/^<th>([^<]*)<\/th>/.exec(row)?.[1], /<td>([^<]*)<\/td><\/tr>$/.exec(row)?.[1]]);
    expect(rows.map((r) => r[0])).toEqual(["task-0", "task-1", "task-2", "task-3"]);
    for (const [, verdict] of rows) expect(["both", "neither", "agent-0/model-0 only", "agent-1/model-1 only"]).toContain(verdict as string);
  });

  test("a trial's page: grade, checks with logs, the diff, the conversation, the ledger and links to its files", async () => {
    const page = await (await get(`/runs/0/${DETAILED}`)).text();
    expect(page).toContain('<tr class="add"><td class="ln"></td><td class="ln">12</td><td class="code">+    if (*s == &#39;&lt;&#39; || *s == &#39;&gt;&#39; || *s == &#39;&quot;&#39;) n += 6;</td></tr>');
    expect(text(page)).toContain("model call #3 · claude-sonnet-4-6 · 1,700 in · 290 out · 1,200 cache · $0.0268");
    expect(text(page)).toContain("tool call mcp__ssebench__test_patch ok · check passed test_patch via mcp · level 2 · ran build, poc-1 · 6.2 s");
    expect(page).toContain(`<a href="/runs/0/${DETAILED}?file=grading%2Fbuild.log">grading/build.log</a>`);
    const log = await get(`/runs/0/${DETAILED}?file=grading%2Fbuild.log`);
    expect(log.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(log.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(await log.text()).toContain("build ok\n");
    expect(text(await (await get(`/runs/0/${SIDECAR}`)).text())).toContain("Mode sidecar");
  });

  test("a job's event stream starts with the page's fragments", async () => {
    const r = await get("/api/events?job=night&agent=agent-0");
    expect(r.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let got = "";
    while (!got.includes("\n\nevent: update\ndata: ")) got += new TextDecoder().decode((await reader.read()).value);
    while (!got.endsWith("\n\n")) got += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const data = JSON.parse(got.split("data: ")[1] as string);
    expect(Object.keys(data.html).sort()).toEqual(["matrix", "progress", "scores", "trials-box"]);
    expect(data.html["trials-box"]).not.toContain("agent-1/model-1");
  });
});

describe("walls", () => {
  test("run folders named outside the results folder, absolutely or through a link are not served", async () => {
    const page = await (await get("/jobs/tricky")).text();
    expect(page).not.toContain("/runs/0/..");
    expect(page).not.toContain('href="/runs/0/linked');
    expect(page).not.toContain('href="/runs/0/via-link');
    for (const path of ["/runs/0/linked/none/x/run-1", "/runs/0/via-link/run-2", "/runs/0/..%2Foutside-run", "/runs/0/%2Fetc", "/runs/0/jobs/night", "/runs/1/task-0", "/runs/0/task-0/model-0/agent-0/night-0/archive"]) {
      const r = await get(path);
      expect([path, r.status, await r.text()]).toEqual([path, 404, "404 no such run in the results folders served here\n"]);
    }
  });

  test("a file through a link, outside the run folder or a folder is never served", async () => {
    for (const file of ["archive/passwd-link", "archive/etc-link/passwd", "grading/linked.log", "../../../../../etc/passwd", "/etc/passwd", "grading", "archive//dialog.jsonl", "./summary.json"]) {
      const r = await get(`/runs/0/${DETAILED}?file=${encodeURIComponent(file)}`);
      expect([file, r.status]).toEqual([file, 404]);
    }
    const page = await (await get(`/runs/0/${DETAILED}`)).text();
    expect(page).not.toContain("passwd-link");
    expect(page).not.toContain("linked.log");
    // A log the summary names through a linked folder is not read.
    expect(text(/<details class="check"><summary>function_test[^]*?<\/details>/.exec(page)?.[0] ?? "")).toBe(" function_test: passed exit 0, 1 s (no log) ");
  });

  test("another Host (a rebound DNS name) is refused; only GET and HEAD", async () => {
    // (rawRequest names the host without its port, as HTTP/1.1 allows)
    expect((await rawRequest(view.url, "GET / HTTP/1.1")).status).toBe(200);
    const rebound = await fetch(`${view.url}/`, { headers: { host: "attacker.example" } });
    expect([rebound.status, await rebound.text()]).toEqual([403, "403 this viewer answers only requests addressed to the host it listens on\n"]);
    const local = await fetch(`${view.url}/`, { headers: { host: `localhost:${new URL(view.url).port}` } });
    expect(local.status).toBe(200);
    const post = await get("/", { method: "POST" });
    expect(post.status).toBe(405);
  });
});

describe("the command line", () => {
  test("a bad port is a usage error; a missing source one line; SIGTERM stops it with 0", async () => {
    const port = await ssebench(["view", "--port", "70000"]);
    expect([port.exitCode, port.stderr]).toEqual([2, "--port must be a whole number from 0 to 65535 (got '70000')\n"]);
    const missing = await ssebench(["view", "no-such-job", "--results", root]);
    expect([missing.exitCode, missing.stderr]).toEqual([1, "no-such-job: not a job (results/jobs/NAME), a job folder nor a folder of runs\n"]);
    const other = await startView([root]);
    expect(await other.stop("SIGTERM")).toBe(0);
    expect(other.log).toContain("Received SIGTERM; stopping");
  });
});
