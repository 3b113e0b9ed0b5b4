/**
 * The host's check of a grade against its own checks list. result.json is written inside the
 * container, so a `passed` must be backed by the checks it lists: at least one, every one from the
 * patched tree passed, and each verdict equal to what its checks say. A contradiction is an error
 * of the run, never a pass. (A `failed` needs no backing: failing is never what an attacker wants.)
 */
import { deriveStatus, type CheckRecord, type PatchResult } from "../../formats/run/result.ts";

const label = (c: CheckRecord) => (c.check === "poc" && c.poc ? `poc ${c.poc}` : String(c.check));

/** What contradicts, in a few words, or undefined. */
export function contradictions(p: PatchResult): string | undefined {
  if (!["passed", "failed", "error"].includes(p.status)) return `status '${String(p.status)}'`;
  if (p.status !== "passed") return undefined;
  if (!Array.isArray(p.checks)) return "status passed without a checks list";
  const derived = deriveStatus(p);
  if (derived !== "passed") return `status passed, but its verdicts say ${derived}`;
  const patched = p.checks.filter((c) => c?.tree !== "original");
  if (!patched.some((c) => c.status === "passed")) return "status passed with no passing check";
  const bad = patched.find((c) => c.status !== "passed");
  if (bad) return `status passed, but check ${label(bad)} is ${String(bad.status)}`;
  const count = (name: string) => patched.filter((c) => c.check === name).length;
  const flag = (verdict: boolean | null, name: string) => (verdict === null ? count(name) === 0 : verdict === count(name) > 0);
  if (!flag(p.build_success, "build")) return `build_success ${p.build_success} with ${count("build")} build check(s)`;
  if (!flag(p.func_test_success, "function_test")) return `func_test_success ${p.func_test_success} with ${count("function_test")} function_test check(s)`;
  if (!flag(p.intent_test_success, "intent_test")) return `intent_test_success ${p.intent_test_success} with ${count("intent_test")} intent_test check(s)`;
  const pocs = count("poc");
  if ((p.pov_total ?? 0) !== pocs || (p.pov_passed ?? 0) !== pocs) return `${p.pov_passed}/${p.pov_total} PoCs with ${pocs} passed poc check(s)`;
  return undefined;
}
