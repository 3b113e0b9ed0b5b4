/**
 * `ssebench view` watching a real job on the engine: the viewer starts on an empty results folder,
 * a job (the real claude-code CLI against the scripted model, and the dummy agent, on the demo task)
 * starts beside it; in headless Chromium the index shows the new job as it appears, the job's page
 * follows it live (running, then both trials ended), and the claude-code trial's page shows its
 * real conversation: the assistant's text, its tool calls, the test_patch call with the outcome the
 * tool API logged, the model calls of the gateway's ledger, and its patch. The job's plain progress
 * lines carry the pass rate so far.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { tempDir } from "../helpers/cli.ts";
import { decodePng, inkShare } from "../helpers/png.ts";
import { startView } from "../view/view-process.ts";
import { agentModelsHome, DEMO_TASK, demoDir, E2E, SKIP_REASON, watchedSsebench } from "./helpers.ts";

setDefaultTimeout(1_800_000);
const results = tempDir("ssebench-e2e-view-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});

describe.skipIf(!E2E)(`the viewer watching a real job${SKIP_REASON}`, () => {
  test("the index and the job's page follow the job live; a real agent's trial shows its conversation", async () => {
    const view = await startView(["--results", results.path, results.path]);
    const browser = await launchBrowser(join(results.path, ".profile"));
    try {
      const index = await browser.open(`${view.url}/`);
      await index.waitFor("document.getElementById('live').className === 'live on'");
      const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path, SSEBENCH_NPM_CACHE: process.env.SSEBENCH_NPM_CACHE };
      const job = watchedSsebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", "claude-code", "--model", "scripted-fix", "--agent", "dummy", "--job", "watched", "--jobs", "1", "--timeout", "600", "--results", results.path], env);
      // The new job's row appears on the open index, running.
      const row = await index.waitFor<string>("(function () { var r = document.querySelector('#jobs tr[data-job=watched]'); return r && r.textContent.indexOf('running') >= 0 && r.textContent; })()", 120_000);
      expect(row).toContain("0/2");
      await index.close();

      const page = await browser.open(`${view.url}/jobs/watched`);
      const progress = "document.getElementById('progress').textContent";
      expect(await page.waitFor<string>(`${progress}.indexOf('Running now') >= 0 && ${progress}`, 600_000)).toMatch(/Running now: htmlesc-quote-overflow (claude-code\/scripted-fix|dummy\/none) #1/);
      await page.waitFor(`${progress}.indexOf('Trials2/2') >= 0 && ${progress}.indexOf('Statefinished') >= 0`, 1_500_000);
      expect(await job.proc.exited).toBe(0);
      const stderr = await job.rest();
      expect(stderr).toContain("[2/2] ");
      expect(stderr).toMatch(/: (passed|failed) in [0-9.]+s; [0-2]\/2 passed so far \([0-9.]+%\)/);
      expect(await page.eval<string>(progress)).toContain("Passed so far50.0%1 passed");
      expect(Number(await page.eval("document.getElementById('live').getAttribute('data-updates')"))).toBeGreaterThanOrEqual(3);
      const rows = await page.eval<string[]>("Array.from(document.querySelectorAll('#trials tr')).slice(1).map(function (r) { return r.cells[2].textContent + ' ' + r.cells[4].textContent; })");
      expect(rows.sort()).toEqual(["claude-code/scripted-fix passed", "dummy/none failed"]);

      // The claude-code trial's page: its real conversation and ledger.
      await page.eval("Array.from(document.querySelectorAll('#trials tr')).find(function (r) { return r.cells[2].textContent.indexOf('claude-code') === 0; }).querySelector('a').click()");
      await page.waitFor("location.pathname.indexOf('/runs/') === 0 && document.readyState === 'complete'");
      const kinds = await page.eval<string[]>("Array.from(document.querySelectorAll('.conv > .item')).map(function (e) { return e.className.replace('item ', ''); })");
      expect(kinds[0]).toBe("complete");
      expect(kinds).toContain("prompt");
      expect(kinds).toContain("assistant");
      expect(kinds).toContain("tool");
      expect(kinds.at(-1)).toBe("complete");
      expect(await page.eval<string>("document.querySelector('.conv .tool.test_patch .who').textContent")).toMatch(/^tool call mcp__ssebench__test_patch ok · check passed test_patch via mcp/);
      const runDir = join(results.path, decodeURIComponent((await page.eval<string>("location.pathname")).replace(/^\/runs\/0\//, "")));
      const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")) as Summary;
      expect(kinds.filter((k) => k === "call")).toHaveLength(summary.model_calls);
      expect(await page.eval("document.querySelectorAll('table.ledger tr').length - 1")).toBe(summary.model_calls);
      expect(await page.eval("document.querySelectorAll('table.diff tr.add').length")).toBeGreaterThan(0);
      const bytes = await page.screenshot(true);
      if (process.env.SSEBENCH_KEEP_SCREENSHOTS) writeFileSync(join(process.env.SSEBENCH_KEEP_SCREENSHOTS, "view-e2e-trial.png"), bytes);
      const shot = decodePng(bytes);
      expect(inkShare(shot, { x: 0, y: 0, width: shot.width, height: Math.min(shot.height, 2000) })).toBeGreaterThan(0.04);
      await page.close();
    } finally {
      await browser.close();
      await view.stop();
    }
  });
});
