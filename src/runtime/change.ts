/**
 * The agent's change as final grading and the agent's tool API see it: files over the size limit
 * are listed first (never read), then the binary-safe patch of the tree against the base commit,
 * with a private index and object store (git.ts).
 */
import { join } from "node:path";
import { capturePatch, gitHome, oversizedFiles } from "./git.ts";
import type { Prepared } from "./prepare.ts";

export interface ChangeSource {
  prepared: Prepared;
  /** The agent's tree. */
  tree: string;
  /** Root-only folder for git's home, index and scratch object store. */
  gitHome: string;
  stateDir: string;
  /** Index file name below stateDir: concurrent captures need their own. */
  indexName: string;
  maxFileBytes: number;
  timeoutMs: number;
}

export type Change = { patch: Uint8Array } | { tooLarge: { path: string; bytes: number }[] };

/** Throws when git fails or runs out of time (the environment's problem, not the agent's). */
export async function captureChange(s: ChangeSource): Promise<Change> {
  const g = gitHome(s.gitHome);
  const gitDir = join(s.prepared.pristine, ".git");
  const index = join(s.stateDir, s.indexName);
  const big = await oversizedFiles(g, gitDir, s.tree, s.prepared.pristine, index, s.maxFileBytes, s.timeoutMs);
  if (big.length > 0) return { tooLarge: big };
  return { patch: await capturePatch(g, gitDir, s.tree, s.prepared.base, index, s.timeoutMs) };
}
