/**
 * The text `test_patch` returns (the reference's newer report): a headline, the checks the level
 * enables in run order, the note on the withheld ones, and the failing check's log — kept to the
 * shorter of its last 100 lines or last 10,000 words, the whole log saved where the agent can read it.
 */
import type { SetAside } from "../../formats/run/result.ts";
import type { Level } from "./levels.ts";
import { CHECK_NAMES, type ReportCheck, toolMsg } from "./messages.ts";

export interface PatchChecks {
  pov_total: number;
  build_success: boolean | null;
  pov_passed: number;
  func_test_success: boolean | null;
  intent_test_success: boolean | null;
  /** Output of each check that failed. */
  logs: Partial<Record<ReportCheck, string>>;
  /** An extra note on a check's line (a time limit, a task that has no such check). */
  details: Partial<Record<ReportCheck, string>>;
}

export function emptyChecks(povTotal: number): PatchChecks {
  return { pov_total: povTotal, build_success: null, pov_passed: 0, func_test_success: null, intent_test_success: null, logs: {}, details: {} };
}

type State = "passed" | "failed" | "not run";
interface Line {
  check: ReportCheck;
  state: State;
  detail: string;
}

/** Which failed check the headline names when several failed (lines stay in run order). */
const REASON_ORDER: ReportCheck[] = ["build", "function_test", "poc", "intent_test"];
export const MAX_LOG_WORDS = 10_000;
export const TRUNCATED_LINES = 100;

export function reportLines(r: PatchChecks, l: Level): Line[] {
  const buildFailed = l.build && !r.build_success;
  const lines: Line[] = [];
  const add = (check: ReportCheck, state: State, detail = r.details[check] ?? "") => lines.push({ check, state, detail });
  const ok = (v: boolean | null): State => (v ? "passed" : "failed");
  if (l.build) add("build", ok(r.build_success));
  if (l.poc) {
    if (buildFailed) add("poc", "not run", toolMsg.detailBuildFailed());
    else if (r.pov_total === 0) add("poc", "passed", toolMsg.detailNone());
    else if (r.pov_passed >= r.pov_total) add("poc", "passed", toolMsg.detailPocsPassed(r.pov_passed, r.pov_total));
    else add("poc", "failed", toolMsg.detailPocsFailed(r.pov_passed, r.pov_total));
  }
  if (l.intent_test) {
    if (buildFailed) add("intent_test", "not run", toolMsg.detailBuildFailed());
    else add("intent_test", ok(r.intent_test_success));
  }
  if (l.function_test) {
    if (buildFailed) add("function_test", "not run", toolMsg.detailBuildFailed());
    else if (l.intent_test && r.intent_test_success && r.func_test_success === null) add("function_test", "passed", toolMsg.detailCovered());
    else add("function_test", ok(r.func_test_success));
  }
  return lines;
}

export function withheldChecks(l: Level): ReportCheck[] {
  return (["build", "poc", "intent_test", "function_test"] as const).filter((c) => !l[c]);
}

/** Did every check that ran pass (true when none ran)? */
export function reportOk(r: PatchChecks, l: Level): boolean {
  return reportLines(r, l).every((c) => c.state === "passed");
}

/**
 * `saveLog` writes a long log where the agent can read it and returns the path (null when it could
 * not); `setAside`: the files of the change the checks did not apply (never the hidden tests' ones).
 */
export function renderReport(r: PatchChecks, l: Level, saveLog: (text: string) => string | null, setAside: SetAside[] = []): string {
  const lines = reportLines(r, l);
  const failed = new Set(lines.filter((c) => c.state === "failed").map((c) => c.check));
  const reason = REASON_ORDER.find((c) => failed.has(c));
  const withheld = withheldChecks(l);
  const sections: string[] = [];
  if (reason) sections.push(toolMsg.failed(toolMsg.reasons[reason]));
  else if (lines.length === 0) sections.push(toolMsg.noneRan());
  else if (withheld.length > 0) sections.push(toolMsg.ranPassed());
  else sections.push(toolMsg.allPassed());
  if (lines.length > 0) sections.push([toolMsg.checksHeader(), ...lines.map((c) => toolMsg.checkLine(CHECK_NAMES[c.check], c.state, c.detail))].join("\n"));
  if (setAside.length > 0) sections.push(toolMsg.setAside(setAside));
  if (withheld.length > 0) {
    let note = toolMsg.withheld(l.n, l.name, withheld.map((c) => CHECK_NAMES[c]));
    if (!reason && lines.length === 0) note += toolMsg.withheldNothingRan();
    else if (!reason && withheld.includes("poc")) note += toolMsg.withheldNoPocs();
    sections.push(note);
  }
  if (reason) sections.push(logSection(CHECK_NAMES[reason], r.logs[reason], saveLog));
  return sections.join("\n\n");
}

export function logSection(name: string, log: string | undefined, saveLog: (text: string) => string | null): string {
  if (log === undefined) return toolMsg.noLog(name);
  const words = log.split(/\s+/).filter((w) => w !== "");
  if (words.length <= MAX_LOG_WORDS) return toolMsg.fullLog(name, log);
  const file = saveLog(log);
  const byLines = log.split("\n").slice(-TRUNCATED_LINES).join("\n");
  const byWords = words.slice(-MAX_LOG_WORDS).join(" ");
  const kept = byLines.length <= byWords.length ? byLines : byWords;
  return file === null ? toolMsg.truncatedNoFile(name, kept) : toolMsg.truncatedLog(name, kept, file);
}
