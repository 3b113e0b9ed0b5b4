/**
 * `ssebench report` in a real browser: headless Debian Chromium loads the file (no network), we read
 * the rendered DOM (summary, heat map, charts, a trial's checks, diff and transcript, hostile text
 * escaped) and take a screenshot that must differ from a blank page's.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type SyntheticRun, writeJob } from "../../scripts/bench/synthetic-results.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

setDefaultTimeout(120_000);
const CHROMIUM = "/usr/bin/chromium";
const tmp = tempDir("ssebench-report-");
afterAll(tmp.cleanup);
const root = tmp.path;

const runs: SyntheticRun[] = [
  { task: "task-a", agent: "reference", model: "none", attempt: 1, status: "passed", seconds: 4 },
  { task: "task-a", agent: "dummy", model: "none", attempt: 1, status: "failed", seconds: 3 },
  { task: "task-b", agent: "reference", model: "none", attempt: 1, status: "passed", seconds: 5 },
  { task: "task-b", agent: "dummy", model: "none", attempt: 1, status: "error", error_type: "infra", seconds: 1 },
];
writeJob(root, "r", runs);
// The first run gets what a real one has: a check with its log, final.patch and a dialog.
const runDir = join(root, "task-a", "none", "reference", "r-0");
mkdirSync(join(runDir, "grading"));
writeFileSync(join(runDir, "grading", "build.log"), "make: build ok <script>alert(1)</script>\n");
writeFileSync(join(runDir, "final.patch"), "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-bad();\n+good();\n");
writeFileSync(join(runDir, "dialog.jsonl"), `${JSON.stringify({ role: "user", content: "Fix the overflow" })}\n${JSON.stringify({ role: "assistant", content: "Patched escape()" })}\n`);
const summary = JSON.parse(await Bun.file(join(runDir, "summary.json")).text());
summary.patch_result.checks = [{ check: "build", poc: null, tree: "patched", status: "passed", exit_code: 0, duration_seconds: 0.5, log: "grading/build.log" }, { check: "poc", poc: "pocs/1", tree: "patched", status: "passed", exit_code: 0, duration_seconds: 0.1, log: "../../../../etc/passwd" }];
writeFileSync(join(runDir, "summary.json"), JSON.stringify(summary));

function chromium(args: string[]) {
  return Bun.spawnSync([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${join(root, `profile-${Math.random()}`)}`, ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin", HOME: root },
  });
}

test("the report renders in Chromium with its tables, charts and a trial's details", async () => {
  const file = join(root, "report.html");
  const r = await ssebench(["report", "r", "--results", root, "-o", file]);
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe(`Report written to ${file}\n`);
  const dom = chromium(["--dump-dom", `file://${file}`]).stdout.toString();
  const text = (id: string) => (new RegExp(`<(?:table|svg) id="${id}"[^]*?</(?:table|svg)>`).exec(dom)?.[0] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
  expect(text("summary")).toContain("dummy/none 2 0 0.0%");
  expect(text("summary")).toContain("reference/none 2 2 100.0%");
  expect(text("heatmap")).toBe("Task dummy/none reference/none task-a 0/1 1/1 task-b 0/0 +1 err 1/1");
  expect(text("passk")).toContain("reference/none pass@1 1.000");
  expect(text("cost")).toContain("reference/none");
  expect(dom).toContain('<span class="a">+good();</span>');
  expect(dom).toContain("make: build ok &lt;script&gt;alert(1)&lt;/script&gt;");
  expect(dom).not.toContain("<script>");
  expect(dom).toContain("<b>assistant</b><pre>Patched escape()</pre>");
  // A log path outside the run folder is not read.
  expect(dom).toContain("poc pocs/1: passed (exit 0, 0.1 s)</summary><pre>(no log)</pre>");
  // A screenshot of the page is not a blank page's.
  const shot = join(root, "report.png");
  const blank = join(root, "blank.png");
  writeFileSync(join(root, "blank.html"), "<!doctype html><title>blank</title>");
  chromium(["--window-size=1200,1600", `--screenshot=${shot}`, `file://${file}`]);
  chromium(["--window-size=1200,1600", `--screenshot=${blank}`, `file://${join(root, "blank.html")}`]);
  const png = await Bun.file(shot).bytes();
  expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
  expect(new DataView(png.buffer).getUint32(16)).toBe(1200);
  expect(statSync(shot).size).toBeGreaterThan(5 * statSync(blank).size);
  if (process.env.SSEBENCH_KEEP_SCREENSHOT) writeFileSync(process.env.SSEBENCH_KEEP_SCREENSHOT, png);
});
