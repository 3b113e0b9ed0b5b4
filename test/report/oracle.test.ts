/**
 * `ssebench report` with the oracle plugin's verdicts (<run dir>/oracle-review.json): the summary's
 * "Oracle agrees" column, each trial's verdict beside its grade, the reasons in its section, escaped.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeRun } from "../../scripts/bench/synthetic-results.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

const tmp = tempDir("ssebench-report-oracle-");
afterAll(tmp.cleanup);

test("the report sets the oracle's verdict beside each grade and counts how often they agree", async () => {
  const root = tmp.path;
  writeRun(root, { task: "t1", agent: "coder", model: "m1", attempt: 1, status: "passed", verdict: "equivalent" }, "r1");
  writeRun(root, { task: "t2", agent: "coder", model: "m1", attempt: 1, status: "failed", verdict: "different but plausible" }, "r2");
  const third = writeRun(root, { task: "t3", agent: "coder", model: "m1", attempt: 1, status: "failed" }, "r3");
  writeFileSync(join(root, third, "oracle-review.json"), JSON.stringify({ status: "ok", verdict: "wrong", model: "m1", reasons: "It only <b>hides</b> the crash." }));
  const file = join(root, "report.html");
  const r = await ssebench(["report", root, "-o", file]);
  expect(r.exitCode).toBe(0);
  const html = readFileSync(file, "utf8");
  const plain = (id: string) => (new RegExp(`<table id="${id}"[^]*?</table>`).exec(html)?.[0] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
  expect(plain("summary")).toContain("Errors Oracle agrees");
  expect(plain("summary")).toEndWith("- 2/3 of 3");
  expect(plain("trials")).toContain("Grade Oracle Spend Seconds");
  expect(plain("trials")).toContain("t1 coder/m1 passed equivalent (agrees)");
  expect(plain("trials")).toContain("t2 coder/m1 failed different but plausible (disagrees)");
  expect(plain("trials")).toContain("t3 coder/m1 failed wrong (agrees)");
  expect(html).toContain("<p>Oracle: <b>wrong</b> (m1)</p><pre>It only &lt;b&gt;hides&lt;/b&gt; the crash.</pre>");
});
