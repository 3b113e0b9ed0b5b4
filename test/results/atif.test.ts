/**
 * A trial's dialog as an ATIF trajectory: the contract's dialog entries to an exact trajectory;
 * dialogs the real drivers make of real codex and opencode streams (test/agents/fixtures) to
 * trajectories our ATIF model and ajv over its JSON Schema accept, every result paired with its
 * call; and `ssebench results --atif DIR` through the binary, hostile run folders included.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { CodexStream } from "../../src/agents/codex.ts";
import { Dialog } from "../../src/agents/dialog.ts";
import { OpencodeStream } from "../../src/agents/opencode.ts";
import { atifJsonSchema, atifProblems } from "../../src/formats/atif/atif.ts";
import { toAtif } from "../../src/results/atif.ts";
import { jsonLines } from "../../src/results/load.ts";
import { msg } from "../../src/results/messages.ts";
import { writeRun, writeRunDetails } from "../../scripts/bench/synthetic-results.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-atif-");
afterAll(scratch.cleanup);
const schemaCheck = new Ajv2020({ strict: false }).compile(atifJsonSchema());

/** The run folder of a claude-code trial with the dialog writeRunDetails gives (the contract's entry kinds). */
function detailedRun(root: string, runId: string): string {
  const rel = writeRun(root, { task: "htmlesc-quote-overflow", agent: "claude-code", model: "claude-sonnet-4-6", attempt: 1, status: "passed", spend: 0.0421 }, runId);
  writeRunDetails(root, rel);
  return join(root, rel);
}
const read = (dir: string) => ({ summary: JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")), dialog: jsonLines(readFileSync(join(dir, "archive", "dialog.jsonl"), "utf8")), version: "0.1.0" });
const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s)).toISOString();

describe("toAtif", () => {
  test("the contract's dialog: the prompt, one agent step per turn, each result under its call, the gateway's totals", () => {
    const trajectory = toAtif(read(detailedRun(join(scratch.path, "exact"), "r1")));
    expect(trajectory).toEqual({
      schema_version: "ATIF-v1.7",
      session_id: "r1",
      agent: { name: "claude-code", version: "1", model_name: "claude-sonnet-4-6", extra: { cli: null, driver: null } },
      steps: [
        { step_id: 1, source: "user", message: "Fix the heap buffer overflow in htmlesc.\nThe crash report is below.", timestamp: t(0) },
        {
          step_id: 2,
          source: "agent",
          message: "I will read escaped_len first.",
          timestamp: t(2),
          reasoning_content: "The length computation ignores the quote character.",
          metrics: { prompt_tokens: 2000, completion_tokens: 120 },
          tool_calls: [{ tool_call_id: "t1", function_name: "Bash", arguments: { command: "sed -n 1,40p src/htmlesc.c" } }],
          observation: { results: [{ source_call_id: "t1", content: "size_t escaped_len(const char *s)\n{\n  size_t n = 0;\n" }] },
        },
        {
          step_id: 3,
          source: "agent",
          message: "",
          timestamp: t(12),
          tool_calls: [{ tool_call_id: "t2", function_name: "mcp__ssebench__test_patch", arguments: {} }],
          observation: { results: [{ source_call_id: "t2", content: "build: passed\npoc: passed" }] },
        },
        { step_id: 4, source: "agent", message: "Quotes are now counted: the PoC no longer crashes.", timestamp: t(24), metrics: { prompt_tokens: 3200, completion_tokens: 490 } },
      ],
      notes: "Converted by ssebench 0.1.0 from the agent's dialog (archive/dialog.jsonl); step metrics are the tokens the agent reported, final_metrics the gateway's meter of every model call.",
      // The gateway's meter: 5200 input + 1200 cache read; cost the run's spend.
      final_metrics: { total_prompt_tokens: 6400, total_completion_tokens: 610, total_cached_tokens: 1200, total_cost_usd: 0.0421, total_steps: 4, extra: { cache_write_tokens: 0, model_calls: 3 } },
      extra: { ssebench: { task: "htmlesc-quote-overflow", dataset: { name: "synthetic", version: "v1" }, grade: "passed", error_type: null, cwd: "/src/htmlesc", end: { status: "success", turns: 3, duration_ms: 41000 } } },
    });
    expect(atifProblems(trajectory)).toEqual([]);
    expect(schemaCheck(trajectory)).toBe(true);
  });

  test("untrusted lines: other shapes left out and counted, a result without its call, arguments that are no object, no step at all", () => {
    const summary = { run_id: "r", config: { agent: "x", model: "none" } };
    const dialog = [
      { type: "prompt", content: "go" },
      { type: "tool", tool_id: 7, name: "sh", status: "running", args: "ls -l" },
      { type: "tool", tool_id: "lost", name: "sh", status: "error", error: { code: 1 } },
      { type: "message", content: 42 },
      { type: "weird" },
      { type: "tool", tool_id: "a", name: "sh", status: "running", args: ["x"] },
      { type: "tool", tool_id: "a", name: "sh", status: "running" },
    ];
    const trajectory = toAtif({ summary, dialog, version: "v" });
    expect(trajectory?.agent).toEqual({ name: "x", version: "unknown", extra: { cli: null, driver: null } });
    expect(trajectory?.steps.slice(1)).toEqual([
      {
        step_id: 2,
        source: "agent",
        message: "",
        tool_calls: [{ tool_call_id: "call-1", function_name: "sh", arguments: { input: "ls -l" } }],
        observation: { results: [{ content: '{"code":1}', extra: { status: "error", tool: "sh", tool_id: "lost" } }] },
      },
      { step_id: 3, source: "agent", message: "", tool_calls: [{ tool_call_id: "a", function_name: "sh", arguments: { input: ["x"] } }] },
      // The same id again in one turn is another turn: ids stay unique within a step.
      { step_id: 4, source: "agent", message: "", tool_calls: [{ tool_call_id: "a", function_name: "sh", arguments: {} }] },
    ]);
    expect(trajectory?.notes).toEndWith(" 2 dialog line(s) of another shape left out.");
    expect(atifProblems(trajectory)).toEqual([]);
    expect(toAtif({ summary, dialog: [{ type: "init", data: {} }, { type: "complete", status: "error" }], version: "v" })).toBeNull();
  });

  const fixtures = join(import.meta.dir, "..", "agents", "fixtures");
  type Converter = { line(l: string): void; complete(e: { code: number; stopped: boolean }, ms: number): void };
  const of = (cli: string, make: (d: Dialog) => Converter) => readdirSync(join(fixtures, cli)).filter((f) => f.endsWith(".stream.jsonl")).map((f): [string, (d: Dialog) => Converter] => [`${cli}/${f}`, make]);
  const streams = [...of("codex", (d) => new CodexStream(d)), ...of("opencode", (d) => new OpencodeStream(d))];
  for (const [fixture, make] of streams) {
    test(`a real ${fixture} made into a dialog by its driver: valid ATIF, every result under its call`, () => {
      const file = join(scratch.path, `${fixture.replace("/", "-")}.dialog.jsonl`);
      const dialog = new Dialog(file);
      // As the driver does (src/agents/index.ts): the start and the prompt, then the CLI's stream.
      dialog.write({ type: "init", data: { task: "htmlesc-quote-overflow", cwd: "/src/htmlesc", model: "scripted", agent: fixture.split("/")[0] as string } });
      dialog.write({ type: "prompt", content: "Fix the vulnerability." });
      const stream = make(dialog);
      for (const line of readFileSync(join(fixtures, fixture), "utf8").split("\n")) if (line.trim()) stream.line(line);
      stream.complete({ code: 0, stopped: false }, 1000);
      dialog.close();
      const entries = jsonLines(readFileSync(file, "utf8"));
      const trajectory = toAtif({ summary: { run_id: "r", config: { agent: fixture.split("/")[0], model: "scripted" } }, dialog: entries, version: "v" });
      if (!trajectory) throw new Error(`${fixture}: no step`);
      expect(atifProblems(trajectory)).toEqual([]);
      expect(schemaCheck(trajectory)).toBe(true);
      expect(trajectory.notes).not.toContain("left out");
      // Every tool call of the dialog is a call of some step, and every result of the dialog names its call.
      const calls = entries.filter((e) => e.type === "tool" && e.status === "running").length;
      const results = entries.filter((e) => e.type === "tool" && e.status !== "running").length;
      expect(trajectory.steps.flatMap((s) => s.tool_calls ?? []).length).toBe(calls);
      const observed = trajectory.steps.flatMap((s) => s.observation?.results ?? []);
      expect(observed.length).toBe(results);
      expect(observed.every((r) => typeof r.source_call_id === "string")).toBe(true);
      expect(trajectory.steps[0]?.source).toBe("user");
    });
  }
});

describe("ssebench results --atif", () => {
  test("one valid trajectory per trial with a dialog; links and foreign files never read", async () => {
    const root = join(scratch.path, "cli");
    const dir = detailedRun(root, "r1");
    writeRun(root, { task: "htmlesc-quote-overflow", agent: "dummy", model: "none", attempt: 1, status: "failed" }, "r2");
    // A dialog.jsonl that is a link to a file elsewhere, and an archive/ that is a link to a folder elsewhere.
    const outside = join(scratch.path, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "dialog.jsonl"), `${JSON.stringify({ type: "prompt", content: "forged" })}\n`);
    const linkedFile = join(root, writeRun(root, { task: "t2", agent: "coder", model: "m", attempt: 1, status: "failed" }, "r3"));
    symlinkSync(join(outside, "dialog.jsonl"), join(linkedFile, "archive", "dialog.jsonl"));
    const linkedDir = join(root, writeRun(root, { task: "t3", agent: "coder", model: "m", attempt: 1, status: "failed" }, "r4"));
    renameSync(join(linkedDir, "archive"), join(linkedDir, "archive-was"));
    symlinkSync(outside, join(linkedDir, "archive"));
    const out = join(scratch.path, "atif-out");
    const r = await ssebench(["results", root, "--atif", out, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).groups).toHaveLength(3);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toContain(msg.atifWritten(1, out, 3));
    expect(lines.filter((l) => l.startsWith("Ignoring")).sort()).toEqual([
      `Ignoring ${join(linkedFile, "archive", "dialog.jsonl")}: ELOOP: too many symbolic links encountered, open '${join(linkedFile, "archive", "dialog.jsonl")}'`,
      `Ignoring ${join(linkedDir, "archive", "dialog.jsonl")}: resolves to ${join(outside, "dialog.jsonl")}, outside ${linkedDir}`,
    ]);
    expect(readdirSync(out)).toEqual(["htmlesc-quote-overflow.claude-code.claude-sonnet-4-6.r1.json"]);
    const written = JSON.parse(readFileSync(join(out, "htmlesc-quote-overflow.claude-code.claude-sonnet-4-6.r1.json"), "utf8"));
    expect(written).toEqual(JSON.parse(JSON.stringify(toAtif({ ...read(dir), version: written.notes.split(" ")[3] }))));
    expect(atifProblems(written)).toEqual([]);
  });

  test("a place that cannot be a folder, and --atif with --compare: one line each", async () => {
    const file = join(scratch.path, "a-file");
    writeFileSync(file, "");
    const r = await ssebench(["results", join(scratch.path, "cli"), "--atif", join(file, "sub")]);
    expect([r.exitCode, r.stderr.trim()]).toEqual([1, msg.atifDir(join(file, "sub"), `ENOTDIR: not a directory, mkdir '${join(file, "sub")}'`)]);
    const c = await ssebench(["results", "--compare", "a", "b", "--atif", file]);
    expect([c.exitCode, c.stderr.trim()]).toEqual([2, msg.atifWithCompare()]);
  });
});
