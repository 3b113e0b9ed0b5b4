/**
 * `ssebench view` in a real browser: headless Debian Chromium, driven over the DevTools protocol,
 * loads the viewer's pages from the running binary (its policy header and all): the index, a job
 * (filters by the form, a matrix cell), a trial with its conversation (hostile text stays text),
 * and a job page that updates while the job's files change as a running job changes them (its
 * lock, a trial's log, its run folder and trials.jsonl line, written with the jobs' own store
 * functions). Screenshots are decoded and looked at (SSEBENCH_KEEP_SCREENSHOTS=DIR keeps them).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeRun } from "../../scripts/bench/synthetic-results.ts";
import { lockJob } from "../../src/jobs/lock.ts";
import { planTrials } from "../../src/jobs/plan.ts";
import { appendTrial, trialLogName, writeJobFile } from "../../src/jobs/store.ts";
import { type Browser, launchBrowser, type Page } from "../helpers/browser.ts";
import { tempDir } from "../helpers/cli.ts";
import { decodePng, inkShare, type Png } from "../helpers/png.ts";
import { DETAILED, HOSTILE, writeViewFixture } from "./fixtures.ts";
import { type RunningView, startView } from "./view-process.ts";

setDefaultTimeout(120_000);
const DESKTOP = [1280, 900] as const;
const PHONE = [390, 844] as const;
const tmp = tempDir("ssebench-view-browser-");
const root = join(tmp.path, "results");
let view: RunningView;
let browser: Browser;

const LIVE_TRIALS = planTrials(["htmlesc-quote-overflow"], [{ name: "reference", usesModel: false }, { name: "dummy", usesModel: false }], [], 1);

beforeAll(async () => {
  mkdirSync(root);
  writeViewFixture(root);
  writeJobFile(join(root, "jobs", "live"), {
    name: "live",
    created_at: "2026-12-04T21:00:00.000Z",
    ssebench_version: "0.1.0",
    dataset: { name: "demo", version: "demo-v1" },
    matrix: { tasks: ["htmlesc-quote-overflow"], agents: ["reference", "dummy"], models: [], attempts: 1 },
    trials: LIVE_TRIALS,
    images: {},
    agents: {},
    argv: [],
  });
  view = await startView(["--results", root, root]);
  browser = await launchBrowser(join(tmp.path, "profile"));
});
afterAll(async () => {
  await browser?.close();
  await view?.stop();
  tmp.cleanup();
});

async function shot(page: Page, name: string, fullPage = false): Promise<Png> {
  const bytes = await page.screenshot(fullPage);
  if (process.env.SSEBENCH_KEEP_SCREENSHOTS) writeFileSync(join(process.env.SSEBENCH_KEEP_SCREENSHOTS, `view-${name}.png`), bytes);
  return decodePng(bytes);
}

/** The text of each row of a table (cells joined by " | "). */
const rowsOf = (page: Page, selector: string) =>
  page.eval<string[]>(`Array.from(document.querySelectorAll(${JSON.stringify(`${selector} tr`)})).slice(1).map(function (r) { return Array.from(r.cells).map(function (c) { return c.textContent.trim(); }).join(" | "); })`);

describe("pages", () => {
  test("the index lists the jobs with their progress; at phone width nothing is wider than the screen", async () => {
    const page = await browser.open(`${view.url}/`, DESKTOP);
    expect(await page.waitFor<string>("document.getElementById('live').className === 'live on' && 'on'")).toBe("on");
    const rows = await rowsOf(page, "#jobs");
    expect(rows.map((r) => r.split(" | ")[0])).toEqual(["live", "night", "tricky"]);
    expect(rows[0]).toBe("live | demo@demo-v1 | 2026-12-04 21:00 UTC | 0/2 | 0 | 0 | 0 | - | $0.0000 | stopped");
    const desktop = await shot(page, "index-desktop");
    expect(inkShare(desktop, { x: 0, y: 0, width: 900, height: 260 })).toBeGreaterThan(0.02);
    await page.close();
    const phone = await browser.open(`${view.url}/`, PHONE);
    expect(await phone.eval("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
    expect(inkShare(await shot(phone, "index-phone"), { x: 0, y: 0, width: PHONE[0], height: 300 })).toBeGreaterThan(0.02);
    await phone.close();
  });

  test("a job: scores, matrix and trials; the filter form and a matrix cell narrow the list", async () => {
    const page = await browser.open(`${view.url}/jobs/night`, DESKTOP);
    expect((await rowsOf(page, "#summary")).map((r) => r.split(" | ")[0])).toEqual(["agent-0/model-0", "agent-1/model-1"]);
    expect(await rowsOf(page, "#trials")).toHaveLength(16);
    await page.eval("document.querySelector('select[name=agent]').value = 'agent-1'; document.querySelector('select[name=grade]').value = 'passed'; document.querySelector('form.filters').submit()");
    await page.waitFor("location.search.indexOf('agent=agent-1') >= 0 && document.readyState === 'complete'");
    const passed = await rowsOf(page, "#trials");
    expect(passed.length).toBeGreaterThan(0);
    for (const row of passed) expect(row).toMatch(/ \| agent-1\/model-1 \| \d \| passed \| /);
    await page.goto(`${view.url}/jobs/night`);
    const cell = await page.eval<string>("document.querySelector('#heatmap tr:nth-child(3) td a').textContent");
    await page.eval("document.querySelector('#heatmap tr:nth-child(3) td a').click()");
    await page.waitFor("location.search.indexOf('task=%3Dtask-1') >= 0 && document.readyState === 'complete'");
    const listed = await rowsOf(page, "#trials");
    expect(listed.length).toBe(Number(cell.split("/")[1]));
    for (const row of listed) expect(row).toMatch(/^\d+ \| task-1 \| agent-0\/model-0 \| /);
    await page.goto(`${view.url}/jobs/night`);
    const full = await shot(page, "job", true);
    expect(full.height).toBeGreaterThan(DESKTOP[1]);
    expect(inkShare(full, { x: 0, y: 0, width: DESKTOP[0], height: 600 })).toBeGreaterThan(0.05);
    await page.close();
  });

  test("a trial: the conversation in order, hostile text as text, folded calls that open", async () => {
    const page = await browser.open(`${view.url}/runs/0/${DETAILED}`, DESKTOP);
    const kinds = await page.eval<string[]>("Array.from(document.querySelectorAll('.conv > .item')).map(function (e) { return e.className.replace('item ', ''); })");
    expect(kinds).toEqual(["complete", "prompt", "call", "thinking", "assistant", "tool", "call", "tool test_patch", "call", "assistant", "complete"]);
    expect(await page.eval("typeof window.pwned")).toBe("undefined");
    expect(await page.eval("document.title")).toBe("task-0 — agent-0/model-0 #1 · ssebench view");
    expect(await page.eval("document.querySelectorAll('.conv script, .conv img').length")).toBe(0);
    expect(await page.eval<string>("document.querySelectorAll('.conv .assistant .text')[1].textContent")).toBe(`Quotes are now counted: the PoC no longer crashes. ${HOSTILE}`);
    const args = "document.querySelector('.conv .tool details')";
    expect(await page.eval(`${args}.open`)).toBe(false);
    await page.eval(`${args}.querySelector('summary').click()`);
    expect(await page.eval(`${args}.open && ${args}.querySelector('pre').offsetHeight > 0`)).toBe(true);
    expect(await page.eval<string>("document.querySelector('.conv .tool.test_patch .who').textContent")).toBe("tool call mcp__ssebench__test_patch ok · check passed test_patch via mcp · level 2 · ran build, poc-1 · 6.2 s");
    const full = await shot(page, "trial", true);
    expect(inkShare(full, { x: 0, y: 0, width: DESKTOP[0], height: Math.min(full.height, 2000) })).toBeGreaterThan(0.04);
    // A file link shows the file as text, its policy sandboxing it.
    await page.eval("document.querySelector('a[href$=\"file=final.patch\"]').click()");
    await page.waitFor("location.search.indexOf('file=final.patch') >= 0 && document.readyState === 'complete'");
    expect(await page.eval<string>("document.body.textContent")).toStartWith("diff --git a/src/htmlesc.c b/src/htmlesc.c\n");
    await page.close();
  });
});

describe("a running job", () => {
  test("its page updates as the job's files change: a trial starts, ends, the job stops", async () => {
    const page = await browser.open(`${view.url}/jobs/live`, DESKTOP);
    await page.waitFor("document.getElementById('live').className === 'live on'");
    const progress = "document.getElementById('progress').textContent";
    expect(await page.eval<string>(progress)).toContain("Trials0/2");
    const dir = join(root, "jobs", "live");
    const release = await lockJob(dir, "live");
    const first = LIVE_TRIALS[0] as (typeof LIVE_TRIALS)[number];
    appendFileSync(join(dir, "logs", trialLogName(first.trial, 1)), "[info] building the layers\n");
    expect(await page.waitFor<string>(`${progress}.indexOf('Running now') >= 0 && ${progress}`)).toContain("Running now: htmlesc-quote-overflow reference/none #1");
    expect(await page.eval<string>(progress)).toContain("Staterunning1 running");
    const running = await shot(page, "live-running");
    const rel = writeRun(root, { task: first.task, agent: first.agent, model: first.model, attempt: 1, status: "passed", seconds: 42 }, "live-1");
    appendTrial(dir, { trial: first.trial, task: first.task, agent: first.agent, model: first.model, attempt: 1, try: 1, status: "passed", error_type: null, error_msg: null, run_id: "live-1", run_dir: rel, dataset: { name: "demo", version: "demo-v1" }, started_at: "", finished_at: "", duration_ms: 42_000, images: { agent: null, case: null }, spend: 0 });
    await page.waitFor(`${progress}.indexOf('Trials1/2') >= 0`);
    expect(await rowsOf(page, "#trials")).toEqual(["1 | htmlesc-quote-overflow | reference/none | 1 | passed | $0.0000 | 42.0"]);
    expect(await page.eval<string>("document.querySelector('#trials a').getAttribute('href')")).toBe(`/runs/0/${rel}`);
    expect(await page.eval<string>(progress)).toContain("Passed so far100.0%");
    release();
    await page.waitFor(`${progress}.indexOf('Statestopped') >= 0`);
    expect(Number(await page.eval("document.getElementById('live').getAttribute('data-updates')"))).toBeGreaterThanOrEqual(4);
    const ended = await shot(page, "live-ended");
    // The trial list appeared below the cards: more ink there than while the trial ran.
    const below = { x: 0, y: 450, width: DESKTOP[0], height: DESKTOP[1] - 450 };
    expect(inkShare(ended, below)).toBeGreaterThan(inkShare(running, below));
    await page.close();
  });
});
