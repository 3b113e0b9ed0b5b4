/**
 * The agent's tool API for real: the compiled entrypoint as root, the agent as a real uid calling
 * MCP and HTTP on 127.0.0.1 (test/e2e/fixtures/tool-agent/tool-agent.sh), checks run as sse-runner.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CallLog } from "../../src/runtime/tool-api/calls.ts";
import { entrypointBin, repoRoot, tempDir } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, newRun, type RunDirs, runEntrypoint, SLEEP, sleepsLeft, users } from "./harness.ts";

setDefaultTimeout(120_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
let dirs: RunDirs | undefined;
afterEach(() => dirs?.cleanup());

const agent = join(repoRoot, "test/e2e/fixtures/tool-agent/tool-agent.sh");
const CHECKS = ["build", "poc", "function_test", "intent_test"] as const;
const POC_TEXT = "aaaaaaaaaaaaaaaaaaaa";

interface Reply {
  name: string;
  status: number;
  body: string;
}

/** Runs the tool agent with STEPs at a difficulty level; returns its replies and the call log. */
async function withAgent(level: string | undefined, steps: string[] | ((d: RunDirs) => string[]), opts: { env?: Record<string, string>; prepare?: (d: RunDirs) => void } = {}) {
  dirs = newRun({ env: { SSE_TOOL_PORT: "0", ...(level === undefined ? {} : { SSE_DIFFICULTY: level }), ...opts.env } });
  opts.prepare?.(dirs);
  const run = await runEntrypoint(dirs, ["--", "/bin/bash", agent, ...(typeof steps === "function" ? steps(dirs) : steps)]);
  return { run, replies: replies(dirs), calls: callLines(dirs) };
}

function replies(d: RunDirs): Reply[] {
  const out = join(d.archive, "tool-agent");
  if (!existsSync(out)) return [];
  return readdirSync(out)
    .sort()
    .map((f) => {
      const text = readFileSync(join(out, f), "utf8");
      const nl = text.indexOf("\n");
      return { name: f.slice(3), status: Number(text.slice(0, nl)), body: text.slice(nl + 1) };
    });
}

function callLines(d: RunDirs): any[] {
  const path = join(d.results, "tool-calls.jsonl");
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}

/** True in a script while the agent's user has processes, i.e. in an agent-phase check (nothing in a check's environment or paths says so). */
const IN_AGENT_PHASE = `pgrep -u ${users.model} >/dev/null`;

const mcpText = (r: Reply[]) => JSON.parse(r.find((x) => x.name === "mcp-test_patch")!.body).result.content[0].text as string;
const byName = (r: Reply[], name: string) => r.find((x) => x.name === name)!;

const PASSING_LOG = "Full log (PoCs):\nstack smashing detected\n";
const POC_REASON = "At least one proof-of-concept (PoC) still triggers the vulnerability. Please reassess your patch and make sure it fixes the root cause of the vulnerability.";

/** What test_patch says on the unmodified demo tree, and which scripts it runs, at each level. */
const UNCHANGED: Record<number, { text: string; checks: string[] }> = {
  0: {
    text: `test_patch result: FAILED. ${POC_REASON}\n\nChecks:\n- build: passed\n- PoCs: FAILED (passed 0 of 1; stopped at the first that still triggers the bug)\n- intent tests: FAILED\n- functional tests: passed\n\n${PASSING_LOG}`,
    checks: ["build", "poc-1", "intent_test", "function_test"],
  },
  1: {
    text: `test_patch result: FAILED. ${POC_REASON}\n\nChecks:\n- build: passed\n- PoCs: FAILED (passed 0 of 1; stopped at the first that still triggers the bug)\n- functional tests: passed\n\nNot available at difficulty level 1 (NO_INTENT_TEST): intent tests. Nothing is reported about them.\n\n${PASSING_LOG}`,
    checks: ["build", "poc-1", "function_test"],
  },
  2: {
    text: "test_patch result: every check that ran passed.\n\nChecks:\n- build: passed\n- functional tests: passed\n\nNot available at difficulty level 2 (NO_FUTURE_TEST): PoCs, intent tests. Nothing is reported about them. Without the PoCs, this result does not show whether the vulnerability is fixed.",
    checks: ["build", "function_test"],
  },
  3: {
    text: "test_patch result: every check that ran passed.\n\nChecks:\n- build: passed\n\nNot available at difficulty level 3 (BUILD_ONLY): PoCs, intent tests, functional tests. Nothing is reported about them. Without the PoCs, this result does not show whether the vulnerability is fixed.",
    checks: ["build"],
  },
  4: {
    text: "test_patch result: no checks ran.\n\nNot available at difficulty level 4 (NO_BUILD): build, PoCs, intent tests, functional tests. Nothing is reported about them. test_patch has nothing to run at this level, so this result says nothing about your patch.",
    checks: [],
  },
};
const ALLOWED: Record<number, string[]> = { 0: [...CHECKS], 1: ["build", "poc", "function_test"], 2: ["build", "function_test"], 3: ["build"], 4: [] };
const NAMES = ["FULL_ASSISTANCE", "NO_INTENT_TEST", "NO_FUTURE_TEST", "BUILD_ONLY", "NO_BUILD"];
const LABEL: Record<string, string> = { build: "build", poc: "PoCs", function_test: "functional tests", intent_test: "intent tests" };

describe("difficulty levels", () => {
  for (const n of [0, 1, 2, 3, 4]) {
    test(`level ${n} (${NAMES[n]}): test_patch over MCP runs exactly its checks; the others answer 403 over HTTP`, async () => {
      const steps = ["mcp", "GET:/sse/v1/capabilities", ...CHECKS.map((c) => `POST:/sse/v1/check/${c}`)];
      const { run, replies: r, calls } = await withAgent(String(n), steps);
      expect(run.exitCode).toBe(0);
      const init = JSON.parse(byName(r, "mcp-initialize").body);
      expect(init.result.serverInfo.name).toBe("ssebench");
      const tools = JSON.parse(byName(r, "mcp-tools-list").body).result.tools;
      expect(tools.map((t: { name: string }) => t.name)).toEqual(["test_patch"]);
      expect(tools[0].inputSchema.properties).toEqual({});
      expect(mcpText(r)).toBe(UNCHANGED[n]!.text);
      const caps = JSON.parse(byName(r, "GET_sse_v1_capabilities").body);
      expect(caps).toEqual({
        difficulty: n,
        level: NAMES[n],
        can_build: n <= 3,
        can_run_poc: n <= 1,
        can_function_test: n <= 2,
        can_intent_test: n === 0,
        poc_count: 1,
        has_function_test: true,
        has_intent_test: true,
      });
      for (const c of CHECKS) {
        const reply = byName(r, `POST_sse_v1_check_${c}`);
        if (ALLOWED[n]!.includes(c)) {
          expect(reply.status).toBe(200);
          expect(Object.keys(JSON.parse(reply.body))).toEqual(["code", "stdout", "stderr"]);
        } else {
          expect(reply.status).toBe(403);
          expect(JSON.parse(reply.body)).toEqual({ error: `Not available at difficulty level ${n} (${NAMES[n]}): ${LABEL[c]}.` });
        }
      }
      // The call log: what ran for each call, and nothing for a refused one.
      expect(calls.map((c) => c.call)).toEqual(["test_patch", "GET /sse/v1/capabilities", ...CHECKS.map((c) => `POST /sse/v1/check/${c}`)]);
      expect(calls[0]).toMatchObject({ via: "mcp", level: n, checks: UNCHANGED[n]!.checks, outcome: n === 4 ? "none" : n <= 1 ? "failed" : "passed" });
      for (const [i, c] of CHECKS.entries()) {
        const line = calls[2 + i];
        expect(line.level).toBe(n);
        if (!ALLOWED[n]!.includes(c)) expect(line).toMatchObject({ via: "http", checks: [], outcome: "refused", http_status: 403 });
      }
      expect(Object.keys(calls[0])).toEqual(["time", "via", "call", "level", "checks", "outcome", "http_status", "seconds"]);
      // Final grading runs every check whatever the level.
      expect(run.result.patch_result.checks.map((c: { check: string }) => c.check)).toEqual(["build", "poc", "function_test", "intent_test"]);
    });
  }

  test("the HTTP checks return the script's output and exit code", async () => {
    const { replies: r } = await withAgent("0", CHECKS.map((c) => `POST:/sse/v1/check/${c}`));
    const body = (c: string) => JSON.parse(byName(r, `POST_sse_v1_check_${c}`).body);
    expect(body("build")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(body("poc")).toEqual({ code: 139, stdout: "stack smashing detected\n", stderr: "" });
    expect(body("function_test")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(body("intent_test").code).toBe(1);
  });

  test("a fixed tree passes every check at level 0; the functional tests are covered by the intent tests", async () => {
    const { replies: r, calls, run } = await withAgent("0", ["fix", "mcp"]);
    expect(mcpText(r)).toBe(
      "test_patch result: every check passed.\n\nChecks:\n- build: passed\n- PoCs: passed (1 of 1)\n- intent tests: passed\n- functional tests: passed (covered by the intent tests)",
    );
    expect(calls[0].checks).toEqual(["build", "poc-1", "intent_test"]);
    expect(run.result.patch_result.status).toBe("passed");
  });

  test("a broken build stops test_patch; the later checks are 'not run'", async () => {
    const { replies: r, calls } = await withAgent(undefined, ["break", "mcp"]);
    const text = mcpText(r);
    expect(text).toStartWith(
      "test_patch result: FAILED. The project failed to build. Please reassess the correctness of your patch.\n\nChecks:\n- build: FAILED\n- functional tests: not run (the build failed)\n\nNot available at difficulty level 2 (NO_FUTURE_TEST): PoCs, intent tests. Nothing is reported about them.\n\nFull log (build):\n",
    );
    expect(text).toContain("calc.sh");
    // The control build on the original tree passed, so the failure is the patch's.
    expect(calls[0].checks).toEqual(["build", "build-original"]);
  });

  test("a failure of the environment says so and is not blamed on the patch", async () => {
    // The build fails on the original tree too (a tool the image lacks).
    const { replies: r, calls } = await withAgent("2", ["mcp", "POST:/sse/v1/check/build"], {
      prepare: (d) => Bun.spawnSync(["sh", "-c", `sed -i 's/^set -e$/set -e; no-such-compiler --version/' ${d.taskRoot}/scripts/build.sh`]),
    });
    expect(mcpText(r)).toBe(
      "An internal testing failure occurred. Your patch is not responsible for this failure.\n\nThe build fails without your change too: the environment cannot run this check.",
    );
    const build = byName(r, "POST_sse_v1_check_build");
    expect(build.status).toBe(500);
    expect(JSON.parse(build.body).stderr).toBe("The build fails without your change too: the environment cannot run this check.");
    expect(calls.map((c) => c.outcome)).toEqual(["infra", "infra"]);
    expect(calls[0].checks).toEqual(["build", "build-original"]);
  });

  test("a check over SSE_CHECK_TIMEOUT fails with the time limit named", async () => {
    // The build takes 30 s on the agent's tree (it added a marker), not on the original one.
    const { replies: r } = await withAgent("3", ["sh:echo '# SLOW' >> calc.sh", "mcp"], {
      env: { SSE_CHECK_TIMEOUT: "1" },
      prepare: (d) => Bun.spawnSync(["sh", "-c", `sed -i 's/^set -e$/set -e; if grep -q SLOW calc.sh; then sleep 30; fi/' ${d.taskRoot}/scripts/build.sh`]),
    });
    const text = mcpText(r);
    expect(text).toStartWith(
      "test_patch result: FAILED. The project failed to build. Please reassess the correctness of your patch.\n\nChecks:\n- build: FAILED (stopped at the time limit of 1 s)\n\n",
    );
    expect(text).toEndWith("[ssebench: the check was stopped at its time limit of 1 s]");
  });

  test("an invalid SSE_DIFFICULTY stops the run before the agent starts, with one line", async () => {
    for (const bad of ["5", "two", "", "-1", "2.0"]) {
      dirs?.cleanup();
      dirs = newRun({ env: { SSE_DIFFICULTY: bad } });
      const r = await runEntrypoint(dirs, ["--", "/bin/sh", "-c", `touch "$SSE_ARCHIVE/started"`]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(`ssebench-entrypoint: SSE_DIFFICULTY must be an integer from 0 to 4, got ${JSON.stringify(bad)}\n`);
      expect(existsSync(join(dirs.archive, "started"))).toBe(false);
    }
  });
});

describe("set aside", () => {
  test("test_patch and a check's reply name the files of the change they did not apply, never one the hidden tests touch", async () => {
    const { replies: r } = await withAgent("0", ["fix", "sh:echo '# mine' >> tests/test_basic.sh", "sh:echo 'echo mine' > regress.sh", "mcp", "POST:/sse/v1/check/function_test"], {
      // The hidden tests also add regress.sh (outside the test folders): set aside for the intent test only.
      prepare: (d) => writeFileSync(join(d.taskRoot, "diffs/test.diff"), `${readFileSync(join(d.taskRoot, "diffs/test.diff"), "utf8")}diff --git a/regress.sh b/regress.sh\nnew file mode 100644\n--- /dev/null\n+++ b/regress.sh\n@@ -0,0 +1 @@\n+true\n`),
    });
    const note = "Not applied (grading uses the original tree's version of the project's build recipes and tests; a build recipe's change is applied only when it just adds the names of your new source files to its file lists):\n- tests/test_basic.sh (test file)";
    expect(mcpText(r)).toBe(`test_patch result: every check passed.\n\nChecks:\n- build: passed\n- PoCs: passed (1 of 1)\n- intent tests: passed\n- functional tests: passed (covered by the intent tests)\n\n${note}`);
    expect(JSON.parse(byName(r, "POST_sse_v1_check_function_test").body).stderr).toBe(note);
  });
});

describe("walls", () => {
  test("PoCs and hidden tests stay out of reach at a level that withholds them, even for the agent's code run by a check", async () => {
    // The agent's calc.sh runs as sse-runner in the functional test: it tries to print the answers.
    const leak = (root: string) => `cat "${root}/pocs/poc.txt" "${root}/diffs/test.diff" "${root}/diffs/patch.diff" >&2; ls "${root}" >&2`;
    const { replies: r } = await withAgent("2", (d) => [`sh:sed -i '2i ${leak(d.taskRoot).replaceAll("/", "\\/")}' calc.sh`, "GET:/sse/v1/project", "GET:/sse/v1/diff", "POST:/sse/v1/check/function_test", "mcp"]);
    const all = r.map((x) => x.body).join("\n");
    expect(all).not.toContain(POC_TEXT);
    expect(all).not.toContain("test_long");
    expect(all).not.toContain("cut -c1-8");
    expect(all).toContain("Permission denied");
    const project = JSON.parse(byName(r, "GET_sse_v1_project").body);
    expect(Object.keys(project)).toEqual(["id", "project", "language", "source", "issue", "bug_description", "crash_reports", "build_script", "test_script"]);
  });

  test("at level 1 the agent's code sees the PoCs in the PoC runs (by design) but never the hidden tests or the fix", async () => {
    const leak = (root: string) => `cat "${root}/diffs/test.diff" "${root}/diffs/patch.diff" >&2`;
    const { replies: r, calls } = await withAgent("1", (d) => [`sh:sed -i '2i ${leak(d.taskRoot).replaceAll("/", "\\/")}' calc.sh`, "POST:/sse/v1/check/poc", "POST:/sse/v1/check/function_test", "mcp"]);
    const all = r.map((x) => x.body).join("\n");
    expect(all).not.toContain("test_long");
    expect(all).not.toContain("cut -c1-8");
    expect(all).toContain("Permission denied");
    expect(calls[2].checks).toEqual(["build", "poc-1", "function_test"]);
  });

  test("the diff is the change final grading captures; the call log is out of the agent's reach", async () => {
    const { replies: r, run } = await withAgent("2", ["fix", "GET:/sse/v1/diff"]);
    const diff = byName(r, "GET_sse_v1_diff");
    expect(diff.status).toBe(200);
    expect(diff.body).toBe(readFileSync(join(dirs!.results, "final.patch"), "utf8"));
    expect(diff.body).toContain("+  input=$(printf %s");
    expect(run.exitCode).toBe(0);
    const st = statSync(join(dirs!.results, "tool-calls.jsonl"));
    expect(st.uid).toBe(0);
  });

  test("the agent cannot write or forge tool-calls.jsonl", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0" } });
    const target = join(dirs.results, "tool-calls.jsonl");
    const r = await runEntrypoint(dirs, ["--", "/bin/bash", "-c", `bash ${agent} GET:/sse/v1/capabilities; echo '{"forged":true}' >> ${target} 2>/dev/null; echo $? > "$SSE_ARCHIVE/rc"`]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dirs.archive, "rc"), "utf8").trim()).not.toBe("0");
    const text = readFileSync(target, "utf8");
    expect(text).not.toContain("forged");
    expect(text.trim().split("\n")).toHaveLength(1);
  });

  test("calls after the agent phase are refused (an after-agent plugin, as the agent's user)", async () => {
    const port = freePort();
    dirs = newRun({
      env: { SSE_TOOL_PORT: String(port), SSE_DIFFICULTY: "0" },
      plugins: [{ name: "late", hook: "after-agent", script: `SSE_TOOL_API=http://127.0.0.1:${port} bash ${agent} mcp POST:/sse/v1/check/build GET:/sse/v1/project` }],
    });
    const r = await runEntrypoint(dirs, ["--", "/bin/true"]);
    expect(r.exitCode).toBe(0);
    const got = replies(dirs);
    const ended = "The agent phase has ended: the tool API answers no more calls.";
    for (const name of ["mcp-initialize", "mcp-test_patch", "POST_sse_v1_check_build", "GET_sse_v1_project"]) {
      expect(byName(got, name).status).toBe(403);
      const body = JSON.parse(byName(got, name).body);
      expect(body).toEqual(name.startsWith("mcp") ? { jsonrpc: "2.0", id: null, error: { code: -32000, message: ended } } : { error: ended });
    }
    const calls = callLines(dirs);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.outcome === "refused" && c.checks.length === 0)).toBe(true);
  });

  test("a check still running when the agent exits is stopped; grading is not held up and not affected", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0", SSE_DIFFICULTY: "2" } });
    Bun.spawnSync(["sh", "-c", `sed -i '2i if ${IN_AGENT_PHASE}; then sleep 300; fi' ${dirs.taskRoot}/scripts/build.sh`]);
    const started = performance.now();
    const r = await runEntrypoint(dirs, ["--", "/bin/bash", "-c", `bash ${agent} POST:/sse/v1/check/build & sleep 1; exit 0`]);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(r.exitCode).toBe(0);
    expect(r.result.patch_result.build_success).toBe(true);
    expect(callLines(dirs)).toEqual([expect.objectContaining({ call: "POST /sse/v1/check/build", outcome: "aborted" })]);
  });
  test("what the agent's code leaves in /tmp during an agent-phase check is gone before grading", async () => {
    const planted = `/tmp/sse-planted-${process.pid}`;
    const plant = `if ${IN_AGENT_PHASE}; then echo poisoned > ${planted}; fi`;
    const { run } = await withAgent("2", [`sh:sed -i '2i ${plant.replaceAll("/", "\\/")}' calc.sh`, "POST:/sse/v1/check/function_test"]);
    expect(run.exitCode).toBe(0);
    expect(existsSync(planted)).toBe(false);
    expect(readFileSync(join(dirs!.results, "entrypoint.log"), "utf8")).toContain("Tool API listening");
  });

  test("SIGTERM while an agent's check runs stops it with the run: interrupted, nothing of sse-runner left", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0", SSE_DIFFICULTY: "2" } });
    Bun.spawnSync(["sh", "-c", `sed -i '2i if ${IN_AGENT_PHASE}; then sleep ${SLEEP + 7}; fi' ${dirs.taskRoot}/scripts/build.sh`]);
    const r = await runEntrypoint(dirs, ["--", "/bin/bash", agent, "POST:/sse/v1/check/build"], {
      onStart: (proc) =>
        void (async () => {
          while (sleepsLeft(7).length === 0) await Bun.sleep(50);
          proc.kill("SIGTERM");
        })(),
    });
    expect(r.exitCode).toBe(143);
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "interrupted", error_msg: "Interrupted by SIGTERM during the agent phase" });
    expect(sleepsLeft(7)).toEqual([]);
  });
});

/** Peak resident memory (kB) of a process until `done` says so (or `until` settles), sampled every 50 ms. */
async function peakRss(pid: () => number | undefined, until: Promise<unknown>, done: () => boolean): Promise<number> {
  let peak = 0;
  let running = true;
  void until.finally(() => (running = false));
  while (running && !done()) {
    const p = pid();
    if (p !== undefined) {
      try {
        const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // gone
      }
    }
    await Bun.sleep(50);
  }
  return peak;
}

/** A bash agent that opens `n` connections, sends REQUEST on each without reading, then reads each status line into $SSE_ARCHIVE/statuses. */
function unreadRequests(n: number, request: string, before = ""): string[] {
  const script = [
    "set -u",
    before,
    'hp=${SSE_TOOL_API#http://}; fds=()',
    `for i in $(seq ${n}); do exec {fd}<>"/dev/tcp/\${hp%%:*}/\${hp##*:}"; printf '${request}' "$hp" >&$fd; fds+=($fd); done`,
    `for fd in "\${fds[@]}"; do IFS= read -r line <&$fd; echo "\${line%$'\\r'}" >> "$SSE_ARCHIVE/statuses"; done`,
    'for fd in "${fds[@]}"; do exec {fd}>&-; done',
  ];
  return ["--", "/bin/bash", "-c", script.filter(Boolean).join("\n")];
}

describe("limits", () => {
  test("diffs the agent does not read: two are answered and held, the others refused at once; the entrypoint's memory stays bounded and the run is graded", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0" } });
    const d = dirs;
    let proc: Bun.Subprocess | undefined;
    // A 40 MB change of random bytes: each diff answer is about 50 MB.
    const run = runEntrypoint(d, unreadRequests(8, "GET /sse/v1/diff HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n", "head -c 40000000 /dev/urandom > blob.bin"), { onStart: (p) => (proc = p) });
    // (sampled while the agent phase holds the answers: until the agent has read every status line)
    const statusFile = join(d.archive, "statuses");
    const peak = await peakRss(() => proc?.pid, run, () => existsSync(statusFile) && readFileSync(statusFile, "utf8").split("\n").length > 8);
    const r = await run;
    const statuses = readFileSync(join(d.archive, "statuses"), "utf8").trim().split("\n");
    expect(statuses).toEqual([...Array(2).fill("HTTP/1.1 200 OK"), ...Array(6).fill("HTTP/1.1 429 Too Many Requests")]);
    const refused = callLines(d).filter((c) => c.http_status === 429);
    expect(refused).toHaveLength(6);
    for (const c of refused) expect(c).toMatchObject({ call: "GET /sse/v1/diff", outcome: "refused" });
    expect(r.result.patch_result).toMatchObject({ status: "failed", error_type: null });
    // Eight answers of ~50 MB held at once: 730 MB at the peak of the agent phase; two held: 310 MB.
    expect(peak).toBeLessThan(500 * 1024);
  }, 180_000);

  test("at most 8 calls in progress: 12 sent at once, 8 answered, 4 refused at once (429)", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0", SSE_DIFFICULTY: "2" } });
    const d = dirs;
    Bun.spawnSync(["sh", "-c", `sed -i '2i if ${IN_AGENT_PHASE}; then sleep 1; fi' ${d.taskRoot}/scripts/build.sh`]);
    await runEntrypoint(d, unreadRequests(12, "POST /sse/v1/check/build HTTP/1.1\\r\\nHost: %s\\r\\nContent-Length: 0\\r\\n\\r\\n"));
    const statuses = readFileSync(join(d.archive, "statuses"), "utf8").trim().split("\n");
    expect(statuses.filter((s) => s === "HTTP/1.1 200 OK")).toHaveLength(8);
    expect(statuses.filter((s) => s === "HTTP/1.1 429 Too Many Requests")).toHaveLength(4);
    const refused = callLines(d).filter((c) => c.http_status === 429);
    expect(refused.map((c) => c.outcome)).toEqual(["refused", "refused", "refused", "refused"]);
  }, 180_000);

  test("a request body over 1 MiB is refused (413) before it is read", async () => {
    dirs = newRun({ env: { SSE_TOOL_PORT: "0" } });
    const d = dirs;
    const send = `hp=\${SSE_TOOL_API#http://}; exec 3<>"/dev/tcp/\${hp%%:*}/\${hp##*:}"; { printf 'POST /mcp HTTP/1.1\\r\\nHost: %s\\r\\nContent-Length: 2097152\\r\\n\\r\\n' "$hp"; head -c 2097152 /dev/zero; } >&3 2>/dev/null; IFS= read -r line <&3; echo "\${line%$'\\r'}" > "$SSE_ARCHIVE/statuses"`;
    await runEntrypoint(d, ["--", "/bin/bash", "-c", send]);
    expect(readFileSync(join(d.archive, "statuses"), "utf8")).toBe("HTTP/1.1 413 Request Entity Too Large\n");
  });

  test("tool-calls.jsonl keeps its first lines only; every call is still counted", () => {
    const t = tempDir("sse-calls-");
    try {
      const log = new CallLog(join(t.path, "calls.jsonl"), 3);
      for (let i = 0; i < 5; i++) log.write({ via: "http", call: "GET /sse/v1/project", level: 2, checks: [], outcome: "ok", http_status: 200 }, performance.now(), new Date());
      expect(log.count).toBe(5);
      expect(readFileSync(join(t.path, "calls.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
    } finally {
      t.cleanup();
    }
  });
});

describe("calls", () => {
  test("parallel calls run one at a time; a check longer than Bun's idle timeout is not cut", async () => {
    const steps = ["par:mcp,POST:/sse/v1/check/build,POST:/sse/v1/check/function_test"];
    let spanFile = "";
    const { replies: r } = await withAgent("2", steps, {
      prepare: (d) => {
        // Every agent-phase build (while the agent's user has processes) records when it ran; the
        // one of the build check (build.sh not started by test.sh) takes 11 s, longer than Bun's
        // default 10 s idle timeout.
        spanFile = join(d.base, "spans");
        Bun.spawnSync(["sh", "-c", `touch ${spanFile} && chmod 666 ${spanFile}`]);
        const hook = `if ${IN_AGENT_PHASE}; then echo "start $(date +%s%N)" >> ${spanFile}; tr "\\\\0" " " < /proc/$PPID/cmdline | grep -q test.sh || sleep 11; echo "end $(date +%s%N)" >> ${spanFile}; fi`;
        Bun.spawnSync(["sh", "-c", `sed -i '2i ${hook.replaceAll("/", "\\/")}' ${d.taskRoot}/scripts/build.sh`]);
      },
    });
    expect(mcpText(r.map((x) => ({ ...x, name: x.name.replace(/-p\d$/, "") })))).toBe(UNCHANGED[2]!.text);
    for (const x of r.filter((x) => x.name.startsWith("POST"))) expect(x.status).toBe(200);
    const marks = readFileSync(spanFile, "utf8").trim().split("\n");
    // mcp: build + functional test; check/build: build; check/function_test: build: 4 builds, never two at once.
    expect(marks).toHaveLength(8);
    for (let i = 0; i < marks.length; i++) expect(marks[i]!.split(" ")[0]).toBe(i % 2 === 0 ? "start" : "end");
  }, 180_000);

  test("a long log is cut to the shorter of the last 100 lines or 10,000 words; the agent can read the full log", async () => {
    // The agent's calc.sh prints 30,000 words (on 300 lines) and fails: so does the functional test.
    const noisy = `i=0; while [ $i -lt 300 ]; do echo $(seq 1 100) >\\&2; i=$((i+1)); done; exit 1`;
    const { replies: r } = await withAgent("2", [`sh:sed -i '2i ${noisy}' calc.sh`, "mcp", "readlog"]);
    const text = mcpText(r);
    expect(text).toStartWith("test_patch result: FAILED. One or more functionality test(s) failed.");
    const m = /\n\nTruncated log \(functional tests\):\n([\s\S]*)\n\nFull log available at (\S+)$/.exec(text);
    expect(m).not.toBeNull();
    expect(m![1]!.split("\n")).toHaveLength(100);
    const full = byName(r, "readlog");
    expect(full.status).toBe(0);
    expect(full.body.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(30_000);
    expect(full.body.endsWith(m![1]!.trimEnd())).toBe(true); // the agent read it with $(cat), which drops the last newline
  });

  test("`ssebench-entrypoint check` for shell agents: output and exit status of the check; a withheld one is refused", async () => {
    const { replies: r } = await withAgent("2", ["check:build", "check:poc", "check:all"], { env: { SSE_CHECK_BIN: entrypointBin, SSE_AGENT_ENV: "SSE_CHECK_BIN" } });
    expect(byName(r, "check-build")).toMatchObject({ status: 0, body: "" });
    expect(byName(r, "check-poc")).toEqual({
      name: "check-poc",
      status: 3,
      body: "ssebench-entrypoint check: refused (HTTP 403): Not available at difficulty level 2 (NO_FUTURE_TEST): PoCs.",
    });
    expect(byName(r, "check-all")).toEqual({ name: "check-all", status: 0, body: UNCHANGED[2]!.text });
  });
});

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}
