/**
 * Which changes to a build recipe grading applies (docs/container-contract.md §7 "Set aside"): an
 * honest fix may add a source file and name it in the Makefile, CMakeLists.txt or meson.build, but
 * a recipe can also be rewritten into a stub (a do-nothing program, an echoing test target). So a
 * recipe change is applied only when it adds the names of the change's new source files next to
 * names of source or object files already there, and nothing else: the recipe, read as tokens
 * (whitespace ignored), must be the original with only such names and list separators inserted.
 * Every other recipe change is set aside whole. Pure: the caller reads the two versions.
 */
import { basename, dirname, posix } from "node:path";

/** A file the agent's change adds, as git applies it. */
export interface AddedFile {
  path: string;
  /** The git mode it is created with (100644, 100755, 120000…). */
  mode: string;
}

/** Compiled-language sources and headers: what a recipe's file lists name and an added name may be. */
const SOURCE_EXT = new Set(["c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl", "tcc", "m", "mm", "s", "S", "asm", "go", "rs", "f", "f90", "java", "kt", "swift", "zig"]);
/** What a source becomes in a recipe's object lists. */
const OBJECT_EXT = ["o", "lo", "obj"];
/** Tokens a list may need around an inserted name (quotes of meson, commas, continuations). */
const SEPARATORS = new Set([",", "'", '"', "\\", "\n"]);
/** Larger recipes are not read: set aside. */
export const MAX_RECIPE_BYTES = 4 * 2 ** 20;

/** Words (paths, names, flags) and single characters; spaces and tabs dropped, newlines kept. */
export function recipeTokens(text: string): string[] {
  return text.match(/[A-Za-z0-9_.\/+@%~-]+|\n|[^\sA-Za-z0-9_.\/+@%~-]/g) ?? [];
}

function extOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1) : "";
}

/** A name of a source or object file (what a file list of a recipe holds). */
function fileListName(token: string): boolean {
  const ext = extOf(basename(token));
  return SOURCE_EXT.has(ext) || OBJECT_EXT.includes(ext);
}

/** Every way a recipe in `recipeDir` may name each added source file: its path from the root or from the recipe's folder, its base name, each also as an object file. */
export function addedNames(added: AddedFile[], recipeDir: string): Set<string> {
  const names = new Set<string>();
  for (const f of added) {
    // An executable could be run by a recipe line; a link could point anywhere.
    if (f.mode !== "100644" || !SOURCE_EXT.has(extOf(basename(f.path)))) continue;
    const forms = [f.path, basename(f.path)];
    if (recipeDir !== "." && f.path.startsWith(`${recipeDir}/`)) forms.push(posix.relative(recipeDir, f.path));
    for (const form of forms) {
      const stem = form.slice(0, form.length - extOf(form).length - 1);
      for (const name of [form, ...OBJECT_EXT.map((e) => `${stem}.${e}`)]) names.add(name).add(`./${name}`);
    }
  }
  return names;
}

/**
 * Is `changed` the `original` recipe with only names of added source files inserted into its file
 * lists? `recipe` is the recipe's path (names may be relative to its folder).
 */
export function onlyAddsSources(original: string, changed: string, added: AddedFile[], recipe: string): boolean {
  if (original === changed) return false;
  const names = addedNames(added, dirname(recipe));
  if (names.size === 0) return false;
  const a = recipeTokens(original);
  const b = recipeTokens(changed);
  // Greedy: an inserted token can only be a name or a separator, so matching each token of the
  // changed recipe to the original's next one whenever they are equal finds the insertions.
  const inserted: boolean[] = [];
  let i = 0;
  for (const t of b) {
    const same = i < a.length && a[i] === t;
    inserted.push(!same);
    if (same) i++;
  }
  if (i < a.length) return false; // something of the original is gone
  for (let start = 0; start < b.length; start++) {
    if (!inserted[start] || (start > 0 && inserted[start - 1])) continue;
    let end = start;
    while (end < b.length && inserted[end]) end++;
    const run = b.slice(start, end);
    if (!run.every((t) => SEPARATORS.has(t) || names.has(t))) return false;
    if (!run.some((t) => names.has(t))) return false;
    if (!besideFileList(b, inserted, start - 1, -1) && !besideFileList(b, inserted, end, 1)) return false;
  }
  return true;
}

/** Is the nearest token from `at` in direction `step` (over separators) a source or object name of the original? */
function besideFileList(tokens: string[], inserted: boolean[], at: number, step: 1 | -1): boolean {
  for (let k = at; k >= 0 && k < tokens.length; k += step) {
    if (SEPARATORS.has(tokens[k]!)) continue;
    return !inserted[k] && fileListName(tokens[k]!);
  }
  return false;
}
