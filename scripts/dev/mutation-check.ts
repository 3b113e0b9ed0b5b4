/**
 * Mutation check of the security-relevant code: applies each break of scripts/dev/mutations.ts to a
 * scratch copy of the checkout (never to the checkout itself), rebuilds when the break is in code
 * the compiled binaries carry, runs the tests meant to catch it, and reports which breaks the
 * suite caught. Exit 0 only when every break was caught; a break whose code no longer matches is
 * reported as stale (the list must follow the code).
 *
 *   bun scripts/dev/mutation-check.ts [--only NAME[,NAME…]] [--keep]
 *
 * Breaks marked `engine` need a running Docker engine and SSEBENCH_E2E=1; without them they are
 * listed as not run (and the exit code says so: 3).
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { importGraph } from "./import-graph.ts";
import { MUTATIONS, type Mutation } from "./mutations.ts";

const repo = resolve(import.meta.dir, "../..");
const args = process.argv.slice(2);
const only = args.includes("--only") ? new Set((args[args.indexOf("--only") + 1] ?? "").split(",")) : undefined;
const keep = args.includes("--keep");
const e2e = process.env.SSEBENCH_E2E === "1";

/** A scratch copy of the tracked files (and the installed packages, linked). */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "ssebench-mutation-"));
  const files = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo }).stdout.toString().split("\0").filter((f) => f && f !== "node_modules");
  for (const f of files) {
    try {
      cpSync(join(repo, f), join(dir, f), { recursive: false, verbatimSymlinks: true });
    } catch {
      // deleted in the work tree but still in the index
    }
  }
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
  const shared = resolve(repo, "../shared");
  try {
    symlinkSync(shared, resolve(dir, "../shared"));
  } catch {
    // ../shared of the temp folder exists already (another run) or cannot be made: pilot tests skip
  }
  return dir;
}

function run(argv: string[], cwd: string): { code: number; out: string } {
  const r = Bun.spawnSync(argv, { cwd, env: { ...process.env, FORCE_COLOR: "0" }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode ?? 1, out: r.stdout.toString() + r.stderr.toString() };
}

const BINARIES = ["ssebench", "ssebench-entrypoint"] as const;
const valueImports = importGraph({ types: false });

/** The binaries whose bundle carries `file` (src/…): those whose entry reaches it by value imports. */
function binariesCarrying(file: string): string[] {
  const target = file.replace(/^src\//, "");
  const reaching = BINARIES.filter((name) => {
    const seen = new Set<string>();
    const todo = [`${name}.ts`];
    while (todo.length > 0) {
      const f = todo.pop() as string;
      if (f === target) return true;
      if (seen.has(f)) continue;
      seen.add(f);
      todo.push(...(valueImports.get(f) ?? []));
    }
    return false;
  });
  // a file neither entry reaches (a generated or embedded one): both
  return reaching.length > 0 ? reaching : [...BINARIES];
}

type Outcome = "caught" | "MISSED" | "stale" | "not run (needs the engine)" | "build broke";

function check(dir: string, m: Mutation): Outcome {
  if (m.engine && !e2e) return "not run (needs the engine)";
  const path = join(dir, m.file);
  const original = readFileSync(path, "utf8");
  const at = original.indexOf(m.from);
  if (at < 0 || original.indexOf(m.from, at + 1) >= 0) return "stale";
  writeFileSync(path, original.slice(0, at) + m.to + original.slice(at + m.from.length));
  try {
    if (m.build) {
      for (const name of binariesCarrying(m.file)) {
        const b = run(["bun", "scripts/build/build.ts", "--only", name], dir);
        if (b.code !== 0) return "build broke";
      }
    }
    // --bail: the first failing test is enough to call the break caught
    const t = run(["bun", "test", "--bail", ...m.tests], dir);
    // --bail skips the afterAll hooks that stop the servers a test started (catalog serve, view),
    // and bun test runs no exit handlers: end what the scratch copy's binaries still run.
    run(["pkill", "-KILL", "-f", `^${join(dir, "dist")}/`], dir);
    return t.code !== 0 ? "caught" : "MISSED";
  } finally {
    writeFileSync(path, original);
    // the next break's tests run the unbroken binaries again (renamed into place: one may still run)
    if (m.build) {
      for (const name of BINARIES) {
        copyFileSync(join(dir, "dist", `.unbroken-${name}`), join(dir, "dist", `.restore-${name}`));
        renameSync(join(dir, "dist", `.restore-${name}`), join(dir, "dist", name));
      }
    }
  }
}

const selected = MUTATIONS.filter((m) => !only || only.has(m.name));
const dir = scratchCopy();
const results: { name: string; outcome: Outcome }[] = [];
try {
  if (selected.some((m) => m.build)) {
    const b = run(["bun", "scripts/build/build.ts"], dir);
    if (b.code !== 0) throw new Error(`the unbroken build failed:\n${b.out}`);
    for (const name of BINARIES) copyFileSync(join(dir, "dist", name), join(dir, "dist", `.unbroken-${name}`));
  }
  for (const m of selected) {
    const started = performance.now();
    const outcome = check(dir, m);
    results.push({ name: m.name, outcome });
    console.log(`${outcome.padEnd(28)} ${m.name} (${((performance.now() - started) / 1000).toFixed(1)} s): ${m.what}`);
  }
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`scratch copy kept at ${dir}`);
}
const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
console.log(`mutations: ${count("caught")} caught, ${results.length - count("caught") - count("not run (needs the engine)")} not caught, ${count("not run (needs the engine)")} not run`);
if (results.some((r) => r.outcome !== "caught" && r.outcome !== "not run (needs the engine)")) process.exit(1);
if (count("not run (needs the engine)") > 0) process.exit(3);
