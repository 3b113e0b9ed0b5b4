/**
 * The key of a task's verification record (records.ts): what a verify's outcome depends on, from
 * the files of a checkout, never from a local image ID, so any machine computes the same key.
 * - task_files: the task folder's files (the images lock's files_sha256 of them);
 * - base_recipe: the recipe of the base image it starts FROM (images/base-images/common/ and
 *   generic-<language>/, paths and contents; build.sh only tags and labels);
 * - grading_code: ssebench's code that decides a grade (GRADING_CODE), each file without comments,
 *   types and imports and by content, not path: a moved file, a renamed import or a comment does
 *   not invalidate every record, a change of what a check does does. The CLI, the image layers
 *   and the verdict rules are left out on purpose (docs/dataset-debian.md "Verification records").
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { filesDigest } from "../../dataset/files-digest.ts";
import { hashFiles } from "../../dataset/hash-files.ts";
import { walkTaskFolder } from "../../dataset/task-tree.ts";

/** The grading code, relative to the checkout: the grading wing, its phase runner and the tool layer's recipe. */
export const GRADING_CODE = ["src/runtime/grading", "src/runtime/sandbox/grading-phase.ts", "images/sandbox/Dockerfile"] as const;
export const BASE_RECIPE = "images/base-images";

export interface RecordKey {
  key: string;
  task_files: string;
  base_recipe: string;
  grading_code: string;
}

const sha256 = (data: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

/** Every regular file under `path` (or `path` itself), as paths relative to `root`, sorted. */
function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

export function taskFilesDigest(folder: string): string {
  const tree = walkTaskFolder(folder);
  return filesDigest(hashFiles(folder, tree.files));
}

/** The languages of the base-generic-<language> images a Dockerfile starts FROM. */
export function baseLanguages(dockerfile: string): string[] {
  const langs = new Set<string>();
  for (const m of dockerfile.matchAll(/^\s*FROM\s+\S*base-generic-([a-z0-9]+):/gim)) langs.add(m[1] as string);
  return [...langs].sort();
}

export function baseRecipeDigest(checkout: string, folder: string): string {
  const langs = baseLanguages(readFileSync(join(folder, "Dockerfile"), "utf8"));
  const paths = [`${BASE_RECIPE}/common`, ...langs.map((l) => `${BASE_RECIPE}/generic-${l}`)].flatMap((p) => filesUnder(checkout, p));
  return sha256(paths.map((p) => `${p}\0${sha256(readFileSync(join(checkout, p)))}\n`).join(""));
}

const transpiler = new Bun.Transpiler({ loader: "ts", trimUnusedImports: true });
const IMPORT_LINE = /^(?:import\b.*|export\s*(?:\*|\{[^}]*\})\s*from\s*.*)$/gm;

/** A source file as its behaviour: TypeScript without comments, types and import lines; other files as they are. */
export function normalisedSource(path: string, text: string): string {
  if (!path.endsWith(".ts")) return text;
  return transpiler.transformSync(text).replace(IMPORT_LINE, "").replace(/\n{2,}/g, "\n").trim();
}

export function gradingCodeDigest(checkout: string): string {
  const files = GRADING_CODE.flatMap((p) => filesUnder(checkout, p));
  const digests = files.map((p) => sha256(normalisedSource(p, readFileSync(join(checkout, p), "utf8")))).sort();
  return sha256(digests.join("\n"));
}

/** The key parts from a checkout (`checkout`: where images/ and src/ are) and a task folder. */
export function recordKey(checkout: string, folder: string, grading = gradingCodeDigest(checkout)): RecordKey {
  const task_files = taskFilesDigest(folder);
  const base_recipe = baseRecipeDigest(checkout, folder);
  return { key: sha256(`${task_files}\n${base_recipe}\n${grading}\n`), task_files, base_recipe, grading_code: grading };
}

/** What differs between a record's key and the current one, in words (empty when the keys match). */
export function keyChanges(recorded: RecordKey, current: RecordKey): string[] {
  const out: string[] = [];
  if (recorded.task_files !== current.task_files) out.push("its files");
  if (recorded.base_recipe !== current.base_recipe) out.push("its base image's recipe");
  if (recorded.grading_code !== current.grading_code) out.push("ssebench's grading code");
  if (out.length === 0 && recorded.key !== current.key) out.push("its key");
  return out;
}
