/**
 * The agent's change as final grading and the agent's tool API see it: files over the size limit
 * are listed first (never read), then the binary-safe patch of the tree against the base commit,
 * with a private index and object store (git.ts).
 */
import { join } from "node:path";
import { CHANGE_DEFAULTS } from "../config.ts";
import { capturePatch, changeSize, gitHome } from "./git.ts";
import { msg } from "../messages.ts";
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
  /** Bounds of the whole change (CHANGE_BOUNDS when not given). */
  bounds?: ChangeBounds;
}

/** Beyond the per-file limit: the change's new or resized files together, their count, the patch. */
export interface ChangeBounds {
  maxTotalBytes: number;
  maxFiles: number;
  maxPatchBytes: number;
}

export const CHANGE_BOUNDS: ChangeBounds = { maxTotalBytes: CHANGE_DEFAULTS.totalMb * 2 ** 20, maxFiles: CHANGE_DEFAULTS.files, maxPatchBytes: CHANGE_DEFAULTS.patchMb * 2 ** 20 };

/** `tooLarge`: the files to name (the largest ones), `why` the error_msg. */
export type Change = { patch: Uint8Array } | { tooLarge: { path: string; bytes: number }[]; why: string };

const NAMED = 20;

/** Throws when git fails or runs out of time (the environment's problem, not the agent's). */
export async function captureChange(s: ChangeSource): Promise<Change> {
  const g = gitHome(s.gitHome);
  const gitDir = join(s.prepared.pristine, ".git");
  const index = join(s.stateDir, s.indexName);
  const b = s.bounds ?? CHANGE_BOUNDS;
  const size = await changeSize(g, gitDir, s.tree, s.prepared.pristine, index, s.maxFileBytes, s.timeoutMs);
  const mb = (bytes: number) => bytes / 2 ** 20;
  if (size.big.length > 0) return { tooLarge: size.big, why: msg.fileTooLarge(mb(s.maxFileBytes)) };
  if (size.totalBytes > b.maxTotalBytes) return { tooLarge: size.changed.slice(0, NAMED), why: msg.changeTooLarge(mb(b.maxTotalBytes)) };
  if (size.changed.length > b.maxFiles) return { tooLarge: size.changed.slice(0, NAMED), why: msg.tooManyFiles(b.maxFiles) };
  const patch = await capturePatch(g, gitDir, s.tree, s.prepared.base, index, s.timeoutMs, b.maxPatchBytes);
  if (patch === null) return { tooLarge: size.changed.slice(0, NAMED), why: msg.patchTooLarge(mb(b.maxPatchBytes)) };
  return { patch };
}
