/**
 * The task prompt every bundled agent sends, built from the agent's task brief (SSE_TASK_FILE), in
 * the reference's sections: Task, Objective, Requirements, Validation, Vulnerability, Project,
 * Build and test (the task's build and test scripts, quoted). The same brief gives the same prompt
 * byte for byte. It holds only what the brief holds (never the reference patch, PoCs or hidden
 * tests) and does not describe test_patch, which agents find through MCP.
 */
import type { TaskBrief } from "../contract/agent.ts";

const LANGUAGES: Record<string, string> = { c: "C", "c++": "C++", cpp: "C++", go: "Go", rust: "Rust", python: "Python", java: "Java", javascript: "JavaScript", typescript: "TypeScript", php: "PHP", ruby: "Ruby" };
const languageName = (l: string) => LANGUAGES[l.toLowerCase()] ?? l;

/** A field that is empty or only the placeholder `none` is left out. */
const present = (text: string | null | undefined): text is string => typeof text === "string" && text.trim() !== "" && text.trim().toLowerCase() !== "none";

/** A fence longer than any run of backticks in `text`. */
function fenced(text: string, info = "text"): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n$/, "")}\n${fence}`;
}

function vulnerability(brief: TaskBrief): string[] {
  const out: string[] = [];
  if (present(brief.bug_description)) out.push("### Bug description", "", brief.bug_description.trim(), "");
  if (present(brief.issue)) out.push("### Issue", "", brief.issue.trim(), "");
  const reports = brief.crash_reports.filter((r) => present(r.text));
  for (const [i, r] of reports.entries()) {
    out.push(reports.length > 1 ? `### Report ${i + 1} of ${reports.length}` : "### Report", "", fenced(r.text), "");
  }
  if (out.length === 0) out.push("The task gives no description of the vulnerability beyond this prompt.", "");
  return out;
}

/** The reference's Build and test section: each script fenced; the test script's call of the build script, which the agent cannot read, replaced by a comment. */
function buildAndTest(brief: TaskBrief): string[] {
  const out: string[] = [];
  if (present(brief.build_script)) out.push("### Build script", "", fenced(brief.build_script, "bash"), "");
  if (present(brief.test_script)) out.push("### Test script", "", fenced(brief.test_script.replaceAll("/ssebench/scripts/build.sh", "# build the project first."), "bash"), "");
  if (out.length === 0) out.push("The project is built and tested by the task's own scripts, which you cannot read; the test_patch tool runs them on your current change.", "");
  return out;
}

export function taskPrompt(brief: TaskBrief): string {
  const lang = languageName(brief.language);
  const lines = [
    "# Task",
    "",
    `You are a software security engineer. Fix a confirmed vulnerability in ${brief.project}, a ${lang} project, by modifying its source code.`,
    "",
    "## Objective",
    "",
    "Find the root cause of the vulnerability described below and fix it in the project's source code, so that the input that triggers it no longer does, while the project keeps its intended behaviour.",
    "",
    "## Requirements",
    "",
    "- Fix the root cause, not only the symptom shown in the report.",
    "- Change only the project's own code; do not modify, add or remove its tests.",
    "- Keep the project's existing behaviour and interfaces for valid input.",
    "- Leave your fix in the working tree of the source code (committing it is fine).",
    "",
    "## Validation",
    "",
    "Your change is graded after you finish: the project is built, the inputs that triggered the vulnerability are run against it, and the project's tests and further hidden tests are run. Use the tools you are given to check your patch before you finish.",
    "",
    "## Vulnerability",
    "",
    ...vulnerability(brief),
    "## Project",
    "",
    `- Name: ${brief.project}`,
    `- Language: ${lang}`,
    `- Source code: ${brief.source}`,
    "",
    "## Build and test",
    "",
    ...buildAndTest(brief),
  ];
  return lines.join("\n");
}
