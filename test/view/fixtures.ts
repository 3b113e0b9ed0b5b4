/**
 * A results folder for the viewer's tests: a finished job (`night`, 4 tasks × 2 agents × 2
 * attempts, its first trial a full run folder with a dialog, a ledger and hostile text, one trial
 * a sidecar agent's), a job whose records name run folders outside the results folder, a linked one,
 * or one below a linked folder (`tricky`), a run outside any job, and links planted inside a run folder.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { syntheticRuns, writeJob, writeRun, writeRunDetails } from "../../scripts/bench/synthetic-results.ts";

export const HOSTILE = '</div><script>window.pwned=1;document.title="pwned"</script><img src=x onerror="window.pwned=2">';
export const DETAILED = "task-0/model-0/agent-0/night-0";
export const SIDECAR = "task-1/model-1/agent-1/night-3";
export const SOLO = "solo-task/none/reference/solo-1";

export function writeViewFixture(root: string): void {
  writeJob(root, "night", syntheticRuns(4, 2, 2, 7));
  writeRunDetails(root, DETAILED, ` ${HOSTILE}`);
  const sidecar = join(root, SIDECAR, "summary.json");
  const summary = JSON.parse(readFileSync(sidecar, "utf8"));
  summary.config.mode = "sidecar";
  writeFileSync(sidecar, JSON.stringify(summary));
  writeRun(root, { task: "solo-task", agent: "reference", model: "none", attempt: 1, status: "passed" }, "solo-1");

  // Links an agent could plant in its run folder (archive/ is the agent's own), and a check whose
  // log is named through one of them.
  const detailed = join(root, DETAILED);
  const detailedSummary = JSON.parse(readFileSync(join(detailed, "summary.json"), "utf8"));
  detailedSummary.patch_result.checks.push({ check: "function_test", poc: null, tree: "patched", status: "passed", exit_code: 0, duration_seconds: 1, log: "archive/etc-link/hostname" });
  writeFileSync(join(detailed, "summary.json"), JSON.stringify(detailedSummary));
  symlinkSync("/etc/passwd", join(detailed, "archive", "passwd-link"));
  symlinkSync("/etc", join(detailed, "archive", "etc-link"));
  symlinkSync("/etc/hostname", join(detailed, "grading", "linked.log"));

  // A job whose records point out of the results folder, or at a linked run folder.
  mkdirSync(join(root, "linked", "none", "x"), { recursive: true });
  mkdirSync(join(root, "..", "outside-run"), { recursive: true });
  writeFileSync(join(root, "..", "outside-run", "summary.json"), readFileSync(join(root, SOLO, "summary.json")));
  symlinkSync(join(root, "..", "outside-run"), join(root, "linked", "none", "x", "run-1"));
  // …and one whose own name is no link, but a folder on the way is.
  mkdirSync(join(root, "..", "outside-tree", "run-2"), { recursive: true });
  writeFileSync(join(root, "..", "outside-tree", "run-2", "summary.json"), readFileSync(join(root, SOLO, "summary.json")));
  symlinkSync(join(root, "..", "outside-tree"), join(root, "via-link"));
  writeJob(root, "tricky", [
    { task: "t-out", agent: "a", model: "none", attempt: 1, status: "passed" },
    { task: "t-abs", agent: "a", model: "none", attempt: 1, status: "passed" },
    { task: "t-link", agent: "a", model: "none", attempt: 1, status: "passed" },
    { task: "t-via", agent: "a", model: "none", attempt: 1, status: "passed" },
  ]);
  const trials = join(root, "jobs", "tricky", "trials.jsonl");
  const lines = readFileSync(trials, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  lines[0].run_dir = "../outside-run";
  lines[1].run_dir = "/etc";
  lines[2].run_dir = "linked/none/x/run-1";
  lines[3].run_dir = "via-link/run-2";
  writeFileSync(trials, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
