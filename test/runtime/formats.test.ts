/** Pure parts: the status rule of result.json and the schema subset used for plugins.yaml. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkSchemaSubset, selectPlugins, validateAgainst } from "../../src/formats/run/plugins.ts";
import { deriveStatus, emptyVerdicts, notGraded, renderResult } from "../../src/formats/run/result.ts";
import { identityProblem } from "../../src/runtime/privilege/processes.ts";
import { goJson, pythonJson } from "../../src/formats/compat/json-compat.ts";
import { repoRoot } from "../helpers/cli.ts";

const schema = JSON.parse(readFileSync(join(repoRoot, "runtime/plugins/schema.json"), "utf8"));
const entry = { name: "a", enabled: true, hook: "on-agent", llm: false, timeout: 1 };

test("the shipped schema uses only keywords the validator implements, and is strict", () => {
  expect(() => checkSchemaSubset(schema)).not.toThrow();
  expect(() => checkSchemaSubset({ type: "array", items: { oneOf: [] } })).toThrow('#/items uses unsupported keyword "oneOf"');
  expect(validateAgainst(schema, [entry])).toEqual([]);
  expect(validateAgainst(schema, [{ ...entry, name: "Bad Name" }])[0]!.problem).toStartWith("must match");
  expect(validateAgainst(schema, [{ ...entry, timeout: 0 }])).toEqual([{ path: [0, "timeout"], problem: "must be at least 1 (was 0)" }]);
  expect(validateAgainst(schema, [{ ...entry, llm: "yes" }])).toEqual([{ path: [0, "llm"], problem: "must be a boolean (was string)" }]);
});

test("selection: unset = enabled, set = exactly those in plugins.yaml order", () => {
  const all = [{ ...entry, name: "x", enabled: false }, { ...entry, name: "y" }] as Parameters<typeof selectPlugins>[0];
  expect(selectPlugins(all, undefined).selected.map((p) => p.name)).toEqual(["y"]);
  expect(selectPlugins(all, ["y", "x", "z"])).toEqual({ selected: all, unknown: ["z"] });
  expect(selectPlugins(all, []).selected).toEqual([]);
});

test("status rule of the reference", () => {
  expect(deriveStatus(emptyVerdicts())).toBe("error");
  expect(deriveStatus({ ...emptyVerdicts(), build_success: true })).toBe("passed");
  expect(deriveStatus({ ...emptyVerdicts(), build_success: true, pov_total: 2, pov_passed: 1 })).toBe("failed");
  expect(deriveStatus({ ...emptyVerdicts(), func_test_success: false })).toBe("failed");
});

test("result.json is compact with the documented key order", () => {
  const text = renderResult(notGraded("interrupted", "Interrupted by SIGTERM during grading"), { agent_duration: 3, agent_timeout: false, evaluator_timeout: false, agent_exit_code: null });
  expect(text).toBe(
    '{"patch_result":{"status":"error","build_success":null,"pov_passed":null,"pov_total":null,"func_test_success":null,"intent_test_success":null,"error_msg":"Interrupted by SIGTERM during grading","error_log":null,"error_type":"interrupted","checks":[],"set_aside":[]},"runtime_result":{"agent_duration":3,"agent_timeout":false,"evaluator_timeout":false,"agent_exit_code":null}}',
  );
});

test("a child's credentials are checked from /proc/<pid>/status: uid, gid and no other group", () => {
  const user = { name: "model", uid: 1000, gid: 1000, home: "/home/model" };
  const status = (uid: string, gid: string, groups: string) => `Name:\tsh\nUid:\t${uid}\nGid:\t${gid}\nGroups:\t${groups}\nNStgid:\t5622\n`;
  expect(identityProblem(status("1000\t1000\t1000\t1000", "1000\t1000\t1000\t1000", ""), user)).toBeUndefined();
  expect(identityProblem(status("1000\t1000\t1000\t1000", "0\t0\t0\t0", ""), user)).toContain("Gid 0 0 0 0");
  expect(identityProblem(status("1000\t1000\t1000\t1000", "1000\t1000\t1000\t1000", "4 27"), user)).toContain("Groups 4 27");
  expect(identityProblem(status("0\t0\t0\t0", "0\t0\t0\t0", ""), user)).toContain("did not run as model");
});

test("JSON like the reference's writers: Go escapes <>& for results.json, Python escapes non-ASCII for manifest.json", () => {
  const v = { error: "a<b>&c", path: "résumé-✓.txt", emoji: "😀" };
  expect(goJson(v)).toBe('{"error":"a\\u003cb\\u003e\\u0026c","path":"résumé-✓.txt","emoji":"😀"}');
  expect(pythonJson(v)).toBe('{"error":"a<b>&c","path":"r\\u00e9sum\\u00e9-\\u2713.txt","emoji":"\\ud83d\\ude00"}');
  expect(JSON.parse(goJson(v))).toEqual(v);
  expect(JSON.parse(pythonJson(v))).toEqual(v);
});
