/**
 * Moves source files with `git mv` and rewrites every relative path that pointed at them (or, in a
 * moved file, every relative path it held), so a layout change is one mechanical step. Usage:
 *   bun scripts/dev/move.ts [--dry-run] OLD=NEW ...
 * OLD and NEW are paths from the repository root; OLD may be a file that is not there yet (a
 * generated one, such as src/formats/compiled-validators.js), or a folder (moved whole).
 * Rewritten: string literals starting with ./ or ../ in .ts/.js files under src/, test/ and
 * scripts/ (imports, import(), mock.module, join(import.meta.dir, "…")) that name an existing file
 * or folder, and the repository-relative form (`src/x/y.ts`) in every tracked text file.
 * Printed: what is left for a person (a path built from several pieces, a bare `x/y.ts` in prose).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const moves = new Map<string, string>();
const folders = new Map<string, string>();
for (const arg of args.filter((a) => a !== "--dry-run")) {
  const [from, to] = arg.split("=");
  if (!from || !to) throw new Error(`not OLD=NEW: ${arg}`);
  const full = join(root, from);
  if (existsSync(full) && statSync(full).isDirectory()) {
    folders.set(from, to);
    for (const file of git(["ls-files", from])) moves.set(file, join(to, relative(from, file)));
  } else moves.set(from, to);
}

function git(argv: string[]): string[] {
  const r = Bun.spawnSync(["git", ...argv], { cwd: root });
  if (r.exitCode !== 0) throw new Error(`git ${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().split("\n").filter(Boolean);
}

/** Where a repository path is after the moves (a folder moved whole goes with its files). */
function after(path: string): string {
  const direct = moves.get(path);
  if (direct) return direct;
  for (const [from, to] of folders) if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
  return path;
}

// A generated module (not there before a build) is known by its declaration file beside it; a path
// out of the checkout (../shared beside it) keeps pointing there whether or not it exists here.
const known = (path: string) =>
  moves.has(path) || path.startsWith("../") || existsSync(join(root, path)) || existsSync(join(root, path.replace(/\.js$/, ".d.ts")));
const tracked = git(["ls-files"]);
const code = tracked.filter((f) => /^(src|test|scripts)\//.test(f) && /\.(ts|js|mjs)$/.test(f));
// ".." alone only right after import.meta.dir (join(import.meta.dir, "..", …)): elsewhere it is
// a parent of some other path, or just text ("a name that goes up with ..").
const literal = /(["'`])(\.\.?\/[^"'`\s$]*)\1|(?<=import\.meta\.dir,\s*)(["'`])(\.\.)\3/g;
const edits = new Map<string, string>();

for (const file of code) {
  const text = readFileSync(join(root, file), "utf8");
  const oldDir = dirname(file);
  const newDir = dirname(after(file));
  const moved = oldDir !== newDir;
  const next = text.replace(literal, (whole, q1: string | undefined, s1: string | undefined, q2: string | undefined, s2: string | undefined) => {
    const quote = (q1 ?? q2) as string;
    const spec = (s1 ?? s2) as string;
    const target = join(oldDir, spec);
    if (!known(target)) return whole;
    const dest = after(target);
    if (dest === target && !moved) return whole;
    let rel = relative(newDir, dest) || ".";
    if (!rel.startsWith(".")) rel = `./${rel}`;
    if (spec.endsWith("/") && !rel.endsWith("/")) rel += "/";
    return `${quote}${rel}${quote}`;
  });
  if (next !== text) edits.set(file, next);
}

// Repository-relative mentions (`src/formats/x.ts`) in any tracked text file.
const textFiles = tracked.filter((f) => /\.(ts|js|mjs|sh|md|json|yaml|yml|toml)$|^\.ci\/|^\.gitignore$|Dockerfile$/.test(f));
const byLength = [...moves].sort((a, b) => b[0].length - a[0].length);
for (const file of textFiles) {
  let text = edits.get(file) ?? readFileSync(join(root, file), "utf8");
  const before = text;
  for (const [from, to] of byLength) text = text.replace(new RegExp(`(?<![\\w./-])${escape(from)}(?![\\w-])`, "g"), to);
  if (text !== before) edits.set(file, text);
}
function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

for (const [from, to] of moves) {
  console.log(`${from} -> ${to}`);
  if (dryRun || !tracked.includes(from)) continue;
  mkdirSync(dirname(join(root, to)), { recursive: true });
  git(["mv", from, to]);
}
for (const [file, text] of edits) {
  console.log(`  rewrote ${after(file)}`);
  if (!dryRun) writeFileSync(join(root, after(file)), text);
}

// What a person must still look at: short mentions of a moved file's old place.
const leftovers = new Set<string>();
for (const [from] of moves) {
  const short = from.replace(/^src\//, "");
  const grep = Bun.spawnSync(["git", "grep", "-n", "-F", "-e", short, "--", "."], { cwd: root });
  for (const line of grep.stdout.toString().split("\n").filter(Boolean)) leftovers.add(line);
}
if (leftovers.size > 0) {
  console.log("\nstill naming an old place (check by hand):");
  for (const line of [...leftovers].sort()) console.log(`  ${line}`);
}
