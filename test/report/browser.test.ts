/**
 * `ssebench report` in a real browser: headless Debian Chromium loads the file (no network), we read
 * the rendered DOM (summary, heat map, charts, a trial's checks, diff and conversation, hostile text
 * escaped, a log path outside the run folder not read) and take a screenshot that must differ from
 * a blank page's.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type SyntheticRun, writeJob, writeRunDetails } from "../../scripts/bench/synthetic-results.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { decodePng, inkShare } from "../helpers/png.ts";

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
// The first run gets what a real agent's has (checks and logs, final.patch, dialog, ledger, tool calls),
// with hostile text in the dialog and a log, and a check whose log path leaves the run folder.
const runDir = join(root, "task-a", "none", "reference", "r-0");
writeRunDetails(root, "task-a/none/reference/r-0", " <script>document.title='pwned'</script>");
writeFileSync(join(runDir, "grading", "build.log"), "make: build ok <script>alert(1)</script>\n");
const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8"));
summary.patch_result.checks[1].log = "../../../../etc/passwd";
writeFileSync(join(runDir, "summary.json"), JSON.stringify(summary));

function chromium(args: string[]) {
  return Bun.spawnSync([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars", `--user-data-dir=${join(root, `profile-${Math.random()}`)}`, ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin", HOME: root },
  });
}

test("the report renders in Chromium with its tables, charts and a trial's checks, diff and conversation", async () => {
  const file = join(root, "report.html");
  const r = await ssebench(["report", "r", "--results", root, "-o", file]);
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe(`Report written to ${file}\n`);
  const dom = chromium(["--dump-dom", `file://${file}`]).stdout.toString();
  const text = (re: RegExp) => (re.exec(dom)?.[0] ?? "").replace(/<[^>]+>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
  const element = (id: string) => text(new RegExp(`<(?:table|svg) id="${id}"[^]*?</(?:table|svg)>`));
  expect(element("summary")).toContain("dummy/none 2 2 0 0.0% 0.0%–65.8%");
  expect(element("summary")).toContain("reference/none 2 2 2 100.0% 34.2%–100.0%");
  expect(text(/<p class="muted">95% CI: [^<]*<\/p>/)).toBe("95% CI: Wilson score interval over tasks, each task's mean over its trials");
  expect(element("funnel")).toBe(
    "Funnel: trials passing Trials Build + PoC + Function test + Intent test PoC fixed, tests failed dummy/none 2 0 (0.0%) 0 (0.0%) 0 (0.0%) 0 (0.0%) 0 reference/none 2 2 (100.0%) 2 (100.0%) 2 (100.0%) 2 (100.0%) 0",
  );
  expect(element("heatmap")).toBe("Task dummy/none reference/none task-a 0/1 1/1 task-b 0/0 +1 err 1/1");
  expect(element("passk")).toContain("reference/none pass@1 1.000");
  expect(element("cost")).toContain("reference/none");
  expect(element("trials")).toBe("# Task Agent/model Grade Spend Seconds 1 task-a reference/none passed $0.0421 4.0 2 task-a dummy/none failed $0.0000 3.0 3 task-b reference/none passed $0.0000 5.0 4 task-b dummy/none error infra $0.0000 1.0");
  const trial = /<section id="trial-1">[^]*?<\/section>/.exec(dom)?.[0] ?? "";
  expect(trial).toContain('<tr class="add"><td class="ln"></td><td class="ln">12</td>');
  expect(trial).toContain("make: build ok &lt;script&gt;alert(1)&lt;/script&gt;");
  // A log path outside the run folder is not read.
  expect(text(/<details class="check"><summary>poc[^]*?<\/details>/)).toBe("poc pocs/crash.html: passed exit 0, 0.4 s (no log)");
  const conversation = text(/<div class="conv">[^]*?<\/section>/);
  expect(conversation).toContain("prompt Fix the heap buffer overflow in htmlesc. The crash report is below.");
  expect(conversation).toContain("model call #2 · claude-sonnet-4-6 · 1,500 in · 200 out · $0.0075 · 1.8 s tool call mcp__ssebench__test_patch ok · check passed test_patch via mcp");
  expect(conversation).toContain("assistant · 3,200 in / 490 out Quotes are now counted: the PoC no longer crashes. <script>document.title='pwned'</script>");
  expect(dom).not.toContain("<script>");
  expect(/<title>([^<]*)<\/title>/.exec(dom)?.[1]).toBe("ssebench report: r");
  // A screenshot of the page has the tables where a blank page has nothing.
  const shot = join(root, "report.png");
  chromium(["--window-size=1200,1600", `--screenshot=${shot}`, `file://${file}`]);
  const bytes = await Bun.file(shot).bytes();
  if (process.env.SSEBENCH_KEEP_SCREENSHOTS) writeFileSync(join(process.env.SSEBENCH_KEEP_SCREENSHOTS, "report.png"), bytes);
  const png = decodePng(bytes);
  expect([png.width, png.height]).toEqual([1200, 1600]);
  expect(inkShare(png, { x: 0, y: 0, width: 1200, height: 800 })).toBeGreaterThan(0.05);
});
