/**
 * A results folder for the viewer's tests: a finished job (`night`, 4 tasks × 2 agents × 2
 * attempts, its first trial a full run folder with a dialog, a ledger and hostile text, one trial
 * a sidecar agent's), a job whose records name run folders outside the results folder or through a
 * link (`tricky`), a run outside any job, and links planted inside a run folder.
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

  // Links an agent could plant in its run folder (archive/ is the agent's own).
  const detailed = join(root, DETAILED);
  symlinkSync("/etc/passwd", join(detailed, "archive", "passwd-link"));
  symlinkSync("/etc", join(detailed, "archive", "etc-link"));
  symlinkSync("/etc/hostname", join(detailed, "grading", "linked.log"));

  // A job whose records point out of the results folder, or at a linked run folder.
  mkdirSync(join(root, "linked", "none", "x"), { recursive: true });
  mkdirSync(join(root, "..", "outside-run"), { recursive: true });
  writeFileSync(join(root, "..", "outside-run", "summary.json"), readFileSync(join(root, SOLO, "summary.json")));
  symlinkSync(join(root, "..", "outside-run"), join(root, "linked", "none", "x", "run-1"));
  writeJob(root, "tricky", [
    { task: "t-out", agent: "a", model: "none", attempt: 1, status: "passed" },
    { task: "t-abs", agent: "a", model: "none", attempt: 1, status: "passed" },
    { task: "t-link", agent: "a", model: "none", attempt: 1, status: "passed" },
  ]);
  const trials = join(root, "jobs", "tricky", "trials.jsonl");
  const lines = readFileSync(trials, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  lines[0].run_dir = "../outside-run";
  lines[1].run_dir = "/etc";
  lines[2].run_dir = "linked/none/x/run-1";
  writeFileSync(trials, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}
