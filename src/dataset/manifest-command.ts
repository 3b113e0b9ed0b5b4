/**
 * `ssebench dataset manifest` (spec §2.2): write, print or check the manifest of a dataset.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError, describeCause, usageError } from "../errors.ts";
import { renderManifest } from "../formats/manifest/manifest.ts";
import type { Manifest } from "../formats/manifest/manifest-types.ts";
import { MANIFEST_FILE } from "../formats/patterns.ts";
import { buildManifest, datasetName } from "./build-manifest.ts";
import { datasetDir } from "./locate.ts";
import { manifestMessages as m, reportMessages as rm } from "./messages.ts";
import { pythonSplitLines, universalNewlines } from "./python-text.ts";
import { unifiedDiff } from "./unified-diff.ts";
import { formatErrors, isValidDataset, loadDataset } from "./validate.ts";

export interface ManifestOptions {
  dir?: string;
  output?: string;
  check?: boolean;
  generatedFrom?: string;
}

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const MAX_DIFF_LINES = 40;

/** Validates `dir` and builds its manifest, or returns the failure output ending in `failureLine`. */
export async function manifestOrFailure(
  dir: string,
  failureLine: (dir: string) => string,
  generatedFrom?: string | null,
): Promise<{ manifest: Manifest } | { failure: CommandOutput }> {
  const d = loadDataset(dir);
  const name = isValidDataset(d) ? datasetName(d) : undefined;
  if (name === undefined || !isValidDataset(d)) {
    return { failure: { stdout: "", stderr: `${formatErrors(d)}\n${failureLine(d.dir)}\n`, exitCode: 1 } };
  }
  return { manifest: buildManifest(d, name, generatedFrom) };
}

/** The file `--check` compares with, read as Python's read_text() does; missing counts as empty. */
function readCurrent(target: string): string {
  if (!existsSync(target)) return "";
  try {
    return universalNewlines(readFileSync(target, "utf8"));
  } catch (error) {
    throw new UserError(m.cannotRead(target, describeCause(error)));
  }
}

function recordedCommit(text: string): string | undefined {
  try {
    const data: unknown = JSON.parse(text);
    const value = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>).generated_from : undefined;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function runManifest(opts: ManifestOptions): Promise<CommandOutput> {
  if (opts.check && opts.output === "-") throw usageError(m.checkNeedsFile);
  const dir = datasetDir(opts.dir);
  const target = opts.output ?? join(dir, MANIFEST_FILE);
  const current = opts.check ? readCurrent(target) : "";
  const generatedFrom = opts.generatedFrom ?? (opts.check ? recordedCommit(current) : undefined);
  const built = await manifestOrFailure(dir, rm.noManifest, generatedFrom);
  if ("failure" in built) return built.failure;
  const text = renderManifest(built.manifest);
  if (opts.output === "-") return { stdout: text, stderr: "", exitCode: 0 };
  if (opts.check) {
    if (current === text) return { stdout: `${m.upToDate(target)}\n`, stderr: "", exitCode: 0 };
    const diff = unifiedDiff(pythonSplitLines(current), pythonSplitLines(text), target, "generated").slice(0, MAX_DIFF_LINES);
    return { stdout: "", stderr: `${[...diff, m.outOfDate(target)].join("\n")}\n`, exitCode: 1 };
  }
  try {
    writeFileSync(target, text);
  } catch (error) {
    throw new UserError(m.cannotWrite(target, describeCause(error)));
  }
  return { stdout: `${m.wrote(target, built.manifest.tasks.length)}\n`, stderr: "", exitCode: 0 };
}
