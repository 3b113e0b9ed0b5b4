/**
 * The oracle plugin (runtime/plugins/oracle, `ssebench-entrypoint oracle`) at after-grading, as
 * root with real users, calling a scripted model through the run's gateway socket and the
 * entrypoint's 127.0.0.1 forwarder: the review carries the scripted verdict and the call's spend;
 * no model → skipped with the reference's reason; a spent budget → failed; the grade never moves.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Wire } from "../../src/formats/models/model-types.ts";
import { ORACLE_REVIEW } from "../../src/formats/run/oracle-review.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { Gateway } from "../../src/gateway/server.ts";
import { costOf } from "../../src/formats/models/model-usage.ts";
import { MODEL_KEY_FILE, MODEL_PLUGIN_KEY_FILE, MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../../src/contract/model.ts";
import { oracleMsg } from "../../src/runtime/plugins/oracle/messages.ts";
import { repoRoot } from "../helpers/cli.ts";
import { PRICE, SCRIPT, scriptedConfig, scriptedModel, USAGE } from "../gateway/support.ts";
import { dropUsers, ensureUsers, newRun, type RunDirs, runEntrypoint } from "./harness.ts";

setDefaultTimeout(60_000);
beforeAll(ensureUsers);
afterAll(dropUsers);

const ANSWER = "VERDICT: different but plausible\nThe candidate bounds the copy where the reference checks the length.";

function oracleRun(): RunDirs {
  const dirs = newRun({ plugins: [{ name: "oracle", hook: "after-grading", llm: true, timeout: 1, script: "exit 99" }] });
  copyFileSync(join(repoRoot, "runtime/plugins/oracle/run.sh"), join(dirs.plugins, "oracle/run.sh"));
  return dirs;
}

/** The run's gateway on a socket in a root-only folder, as `ssebench run` mounts it. */
function serveModel(dirs: RunDirs, opts: { budget?: number; wires?: Wire[] } = {}) {
  chmodSync(dirs.base, 0o777);
  const modelDir = join(dirs.base, "model");
  mkdirSync(modelDir, { mode: 0o700 });
  const ledgerDir = join(dirs.base, "ledger");
  mkdirSync(ledgerDir);
  const gateway = new Gateway();
  const run = gateway.issue("rt", scriptedModel({ ...SCRIPT, no_tools: ANSWER }, undefined, scriptedConfig("scripted-test", opts.wires)), opts.budget ?? 10, ledgerDir);
  // As `ssebench run` serves it: the plugin socket answers only the plugins' own key, so the oracle's
  // call passes only if the entrypoint gave it that key after grading.
  const pluginKey = `sk-ssebench-plugin-test-${run.key.slice(-12)}`;
  const access = gateway.serveRun(run, join(modelDir, MODEL_SOCKET), join(modelDir, MODEL_PLUGIN_SOCKET), pluginKey);
  writeFileSync(join(modelDir, MODEL_KEY_FILE), `${run.key}\n`, { mode: 0o600 });
  writeFileSync(join(modelDir, MODEL_PLUGIN_KEY_FILE), `${pluginKey}\n`, { mode: 0o600 });
  Object.assign(dirs.env, { SSE_MODEL_DIR: modelDir, SSE_MODEL_PORT: "0", SSE_MODEL_NAME: "scripted-test" });
  const ledger = () =>
    readFileSync(join(ledgerDir, "model-calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as LedgerEntry);
  return { access, ledger };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("oracle plugin", () => {
  test("the scripted model's verdict lands in review.txt/json and dialog.jsonl; the call is the run's spend", async () => {
    const dirs = oracleRun();
    const { access, ledger } = serveModel(dirs, { wires: ["chat", "responses"] });
    try {
      const r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
      const totals = await access.close();
      expect(r.exitCode).toBe(0);
      expect(r.result.patch_result.status).toBe("passed");
      expect(r.pluginResults).toEqual([{ name: "oracle", hook: "after-grading", status: "ok", exit_code: 0, duration_seconds: expect.any(Number), started: true }]);
      // The OpenAI wires report no cache writes.
      const tokens = { ...USAGE, cache_write: 0 };
      const review = readJson(join(dirs.archive, "oracle/review.json"));
      expect(review).toEqual({
        status: "ok",
        verdict: "different but plausible",
        reasons: "The candidate bounds the copy where the reference checks the length.",
        grade: "passed",
        model: "scripted-test",
        wire: "chat",
        tokens,
        cost: costOf(tokens, PRICE),
        duration_ms: expect.any(Number),
      });
      // The copy `ssebench results` reads, in the results dir the agent never reaches.
      expect(readJson(join(dirs.results, ORACLE_REVIEW))).toEqual(review);
      expect(readFileSync(join(dirs.archive, "oracle/review.txt"), "utf8")).toBe(
        "Verdict: different but plausible\nGrade: passed\nModel: scripted-test (chat)\n\nThe candidate bounds the copy where the reference checks the length.\n",
      );
      const dialog = readFileSync(join(dirs.archive, "oracle/dialog.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(dialog.map((d) => [d.seq, d.type])).toEqual([[0, "init"], [1, "prompt"], [2, "message"], [3, "complete"]]);
      expect(dialog[0].data).toMatchObject({ task: "demo-calc (calc, c)", model: "scripted-test", agent: "oracle" });
      // The reference patch, the agent's patch (here the same) and the crash report are in the prompt.
      const reference = readFileSync(dirs.reference, "utf8");
      expect(dialog[1].content.split(reference.trim()).length).toBeGreaterThanOrEqual(3);
      expect(dialog[1].content).toContain("calc crashes on long inputs");
      expect(dialog[2]).toMatchObject({ role: "assistant", content: ANSWER });
      expect(dialog[3]).toMatchObject({ status: "success", turns: 1 });
      const calls = ledger();
      expect(calls.map((c) => [c.wire, c.status, c.caller, c.plugin])).toEqual([["chat", 200, "plugin", "oracle"]]);
      expect(totals).toMatchObject({ calls: 1, answered: 0, plugin_calls: 1, plugin_spend: totals.spend });
      expect(totals.spend).toBe(calls[0]?.cost as number);
      expect(totals.spend).toBeCloseTo(review.cost, 10);
      expect(review.cost).toBeGreaterThan(0);
    } finally {
      dirs.cleanup();
    }
  });

  test("an agent's call naming a plugin is still the agent's in the ledger; the oracle's call is the plugin's", async () => {
    const dirs = oracleRun();
    const { access, ledger } = serveModel(dirs, { wires: ["chat"] });
    // bash alone: HTTP/1.1 over /dev/tcp to SSE_BASE_URL, with the header the oracle sends.
    const agent = [
      "--",
      "/bin/bash",
      "-c",
      [
        'hp="${SSE_BASE_URL#http://}"',
        `body='{"model":"scripted-test","messages":[{"role":"user","content":"hi"}]}'`,
        'exec 3<>"/dev/tcp/${hp%%:*}/${hp##*:}"',
        'printf "POST /v1/chat/completions HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nx-ssebench-plugin: oracle\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n%s" "$SSE_API_KEY" "${#body}" "$body" >&3',
        'cat <&3 > /dev/null',
        "echo '# reviewed' >> calc.sh",
      ].join("; "),
    ];
    try {
      const r = await runEntrypoint(dirs, agent);
      const totals = await access.close();
      expect(r.exitCode).toBe(0);
      expect(r.pluginResults?.[0]?.status).toBe("ok");
      expect(ledger().map((c) => [c.caller, c.plugin, c.status])).toEqual([
        ["agent", null, 200],
        ["plugin", "oracle", 200],
      ]);
      expect(totals).toMatchObject({ calls: 2, answered: 1, plugin_calls: 1 });
    } finally {
      dirs.cleanup();
    }
  });

  test("without model variables: skipped with the reference's reason, no review", async () => {
    const dirs = oracleRun();
    delete dirs.env.SSE_API_KEY;
    delete dirs.env.SSE_BASE_URL;
    // A review left in the archive (the agent's until grading) does not survive the plugin.
    mkdirSync(join(dirs.archive, "oracle"));
    writeFileSync(join(dirs.archive, "oracle/review.json"), '{"status":"ok","verdict":"equivalent"}');
    try {
      const r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
      expect(r.exitCode).toBe(0);
      expect(r.result.patch_result.status).toBe("passed");
      expect(oracleMsg.noModel()).toBe("No LLM configured (SSE_API_KEY, SSE_BASE_URL unset)");
      expect(r.pluginResults).toEqual([{ name: "oracle", hook: "after-grading", status: "skipped", exit_code: 0, duration_seconds: expect.any(Number), started: true, reason: oracleMsg.noModel() }]);
      expect(existsSync(join(dirs.archive, "oracle"))).toBe(false);
      expect(existsSync(join(dirs.results, ORACLE_REVIEW))).toBe(false);
    } finally {
      dirs.cleanup();
    }
  });

  test("a model that cannot be reached: failed with the reason; the grade stands", async () => {
    // The harness's SSE_BASE_URL (127.0.0.1:9) with no gateway behind it.
    const dirs = oracleRun();
    try {
      const r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
      expect(r.exitCode).toBe(0);
      expect(r.result.patch_result.status).toBe("passed");
      expect(r.pluginResults?.map((p) => [p.status, p.exit_code])).toEqual([["failed", 1]]);
      const review = readJson(join(dirs.archive, "oracle/review.json"));
      expect(review).toMatchObject({ status: "failed", verdict: null, wire: null });
      expect(review.error).toStartWith("The model gateway at http://127.0.0.1:9/ is unreachable: ");
      expect(readFileSync(join(dirs.archive, "oracle/review.txt"), "utf8")).toStartWith(`Verdict: none\nGrade: passed\nModel: test-model\nError: ${review.error}\n`);
    } finally {
      dirs.cleanup();
    }
  });

  test("a spent budget: failed with the gateway's reason in the review and the plugin's log; the grade stands", async () => {
    const dirs = oracleRun();
    const { access, ledger } = serveModel(dirs, { budget: 0 });
    try {
      const r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
      const totals = await access.close();
      expect(r.exitCode).toBe(0);
      expect(r.result.patch_result.status).toBe("passed");
      expect(r.pluginResults).toEqual([{ name: "oracle", hook: "after-grading", status: "failed", exit_code: 1, duration_seconds: expect.any(Number), started: true, error: "exit status 1" }]);
      const review = readJson(join(dirs.archive, "oracle/review.json"));
      expect(review).toMatchObject({ status: "failed", verdict: null, grade: "passed", wire: "anthropic", cost: null });
      expect(review.error).toStartWith("The model answered 400: ");
      expect(review.error).toContain("budget");
      expect(readFileSync(join(dirs.archive, "plugins/oracle.log"), "utf8")).toContain(oracleMsg.failed(review.error));
      expect(ledger().map((c) => [c.wire, c.status, c.cost, c.caller])).toEqual([["anthropic", 400, 0, "plugin"]]);
      expect(totals.spend).toBe(0);
    } finally {
      dirs.cleanup();
    }
  });
});
