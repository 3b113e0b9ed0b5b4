/**
 * What sse-runner may read of the task root during each check (docs/container-contract.md §7):
 * the scripts and the other task files always; the PoCs only in the PoC runs (the run script
 * reads the one it is given); the fix, the hidden tests (grading applies them itself, as root) and
 * the reference-only tests never. The agent's code runs in every check, so no check shows it an
 * answer that check does not need, nor a file whose being readable names the check.
 */
import { chmodSync, chownSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { CheckName } from "../../formats/run/result.ts";
import { log } from "../log.ts";
import type { TaskConfig } from "../task.ts";
import type { Account } from "../privilege/users.ts";

/** The task files that are answers, and the one check (if any) that may read each. */
export function answerFiles(task: TaskConfig): { path: string; readableIn: CheckName | null }[] {
  const { files } = task;
  const out: { path: string; readableIn: CheckName | null }[] = [];
  for (const path of [files.patch, files.securityTest, files.intentTest, files.futureTest]) if (path) out.push({ path, readableIn: null });
  for (const path of files.poc) out.push({ path, readableIn: "poc" });
  return out;
}

/** Before a check: the task root open to sse-runner's group, each answer open only to its own check. */
export function showTaskFiles(taskRoot: string, task: TaskConfig, runner: Account, check: CheckName): void {
  chownSync(taskRoot, 0, runner.gid);
  chmodSync(taskRoot, 0o750);
  const byPath = new Map<string, boolean>();
  // A path named twice (a PoC that is also the hidden diff) is hidden unless every use allows it.
  for (const a of answerFiles(task)) byPath.set(a.path, (byPath.get(a.path) ?? true) && a.readableIn === check);
  for (const [rel, readable] of byPath) {
    const path = join(taskRoot, rel);
    const inside = relative(taskRoot, path);
    if (inside === "" || inside.startsWith(`..${sep}`) || inside === "..") continue;
    let st;
    try {
      st = statSync(path);
    } catch {
      continue; // a missing file is the dataset validator's to report
    }
    const owner = st.mode & 0o700;
    try {
      chownSync(path, 0, readable ? runner.gid : 0);
      // The group gets what the owner has, minus writing; others never get anything.
      chmodSync(path, readable ? owner | ((owner & 0o500) >> 3) : owner);
    } catch (e) {
      log("WARN", "Could not set the mode of a task file", { path, err: e instanceof Error ? e.message : String(e) });
    }
  }
}
