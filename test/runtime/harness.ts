/**
 * Runs the compiled entrypoint on the host as root with every path in a temporary folder: real
 * users (created here when missing, as CI starts from a fresh Debian machine), real uid
 * switching, real process groups. Build first: `bun run build`.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entrypointBin, repoRoot, tempDir } from "../helpers/cli.ts";

export const fixture = join(import.meta.dir, "fixtures/demo-task");

/**
 * The test users, unique to this test process: the entrypoint kills every process of its agent and
 * runner users, so two suites running at once on one machine must not share them. The tool layer's
 * names (`model`, `sse-runner`) are the defaults; these are passed with SSE_MODEL_USER/SSE_RUNNER_USER.
 * Their uids come from the test range (docs/container-contract.md §4), which no image and no run
 * uses: `useradd`'s own choice (1000, 999 on a fresh machine) is exactly a container's `model` and
 * `sse-runner`, and killing every process of those uids would hit live runs.
 */
export const users = { model: `ssebench-m${process.pid}`, runner: `ssebench-r${process.pid}` };
export const TEST_UID_BASE = 1_500_000_000;
export const testUids = { model: TEST_UID_BASE + 2 * process.pid, runner: TEST_UID_BASE + 2 * process.pid + 1 };
/** A second pair in the test range, for runs that renumber the users (SSE_MODEL_UID/SSE_RUNNER_UID). */
export const renumberedUids = { model: TEST_UID_BASE + 100_000_000 + 2 * process.pid, runner: TEST_UID_BASE + 100_000_001 + 2 * process.pid };
let created = false;

function namesIn(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").map((l) => l.split(":")[0]!).filter(Boolean);
}

function sh(argv: string[]): void {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
}

/** Creates this process's users (removing those of test processes that are gone). */
export function ensureUsers(): void {
  if (created) return;
  if (process.getuid?.() !== 0) throw new Error("the runtime tests run as root (they switch uids)");
  // Users of test processes that are gone, and this pid's own from an earlier process (pid reuse).
  const stale = (name: string) => {
    const m = /^ssebench-[mr](\d+)$/.exec(name);
    return m !== null && (Number(m[1]) === process.pid || !existsSync(`/proc/${m[1]}`));
  };
  for (const name of namesIn("/etc/passwd").filter(stale)) {
    // A test process killed mid-run (a timeout, ^C) leaves its agent's code running, maybe a fork
    // loop: end it, or it eats the machine and userdel refuses a user with processes.
    killAllOf(name);
    Bun.spawnSync(["userdel", "-r", name], { stderr: "ignore" });
  }
  for (const name of namesIn("/etc/group").filter(stale)) Bun.spawnSync(["groupdel", name], { stderr: "ignore" });
  // -l: no lastlog/faillog record (those files are indexed by uid: a high uid makes them huge).
  sh(["groupadd", "-g", String(testUids.model), users.model]);
  sh(["useradd", "-l", "-m", "-u", String(testUids.model), "-g", String(testUids.model), "-s", "/bin/bash", users.model]);
  sh(["groupadd", "-g", String(testUids.runner), users.runner]);
  sh(["useradd", "-l", "-M", "-u", String(testUids.runner), "-g", String(testUids.runner), "-d", "/nonexistent", "-s", "/usr/sbin/nologin", users.runner]);
  created = true;
}

/** Sends KILL to every process of a test user until none is left (bounded). */
function killAllOf(name: string): void {
  for (let i = 0; i < 20; i++) {
    if (Bun.spawnSync(["pkill", "-KILL", "-u", name]).exitCode !== 0) return; // 1: no process matched
    Bun.sleepSync(50);
  }
}

/** Removes this process's users (afterAll of each file; bun test runs no exit handlers). */
export function dropUsers(): void {
  if (!created) return;
  for (const name of [users.model, users.runner]) {
    killAllOf(name);
    Bun.spawnSync(["userdel", "-r", name], { stderr: "ignore" });
    Bun.spawnSync(["groupdel", name], { stderr: "ignore" }); // when USERGROUPS_ENAB did not take it
  }
  created = false;
}

export function uidOf(name: string): number {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  return Number(line?.split(":")[2]);
}

export interface RunDirs {
  base: string;
  taskRoot: string;
  source: string;
  results: string;
  archive: string;
  work: string;
  plugins: string;
  reference: string;
  env: Record<string, string>;
  cleanup: () => void;
}

export interface PluginSpec {
  name: string;
  hook: string;
  llm?: boolean;
  enabled?: boolean;
  timeout?: number;
  script: string;
}

/** A fresh run: the demo task, its source, empty results/archive, and the given plugins. */
export function newRun(opts: { plugins?: PluginSpec[]; pluginsYaml?: string; env?: Record<string, string> } = {}): RunDirs {
  const t = tempDir("sse-rt-");
  chmodSync(t.path, 0o755); // model and sse-runner must traverse to their folders
  const d = (name: string) => join(t.path, name);
  cpSync(join(fixture, "task"), d("task"), { recursive: true });
  cpSync(join(fixture, "source"), d("src"), { recursive: true });
  cpSync(join(fixture, "task/diffs/patch.diff"), d("reference/patch.diff"), { recursive: true });
  mkdirSync(d("out/results"), { recursive: true });
  mkdirSync(d("archive"));
  mkdirSync(d("plugins"));
  cpSync(join(repoRoot, "runtime/plugins/schema.json"), join(d("plugins"), "schema.json"));
  const specs = opts.plugins ?? [];
  const listed = specs.map((p) => `- name: ${p.name}\n  enabled: ${p.enabled ?? true}\n  hook: ${p.hook}\n  llm: ${p.llm ?? false}\n  timeout: ${p.timeout ?? 1}\n`);
  writeFileSync(join(d("plugins"), "plugins.yaml"), opts.pluginsYaml ?? (listed.join("") || "[]\n"));
  for (const p of specs) {
    mkdirSync(join(d("plugins"), p.name));
    writeFileSync(join(d("plugins"), p.name, "run.sh"), `#!/bin/sh\n${p.script}\n`, { mode: 0o755 });
  }
  const env: Record<string, string> = {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    SSE_ARCHIVE: d("archive"),
    SSE_RESULTS: d("out/results"),
    SSE_TASK_ROOT: d("task"),
    SSE_PLUGINS_DIR: d("plugins"),
    SSE_SOURCE: d("src"),
    SSE_REFERENCE_PATCH: d("reference/patch.diff"),
    SSE_WORK: d("work"),
    SSE_MODEL_USER: users.model,
    SSE_RUNNER_USER: users.runner,
    SSE_KILL_GRACE: "0.3",
    // Any free port for the agent's tool API: suites on one machine would all want 3000.
    SSE_TOOL_PORT: "0",
    SSE_API_KEY: "sk-test-secret",
    SSE_BASE_URL: "http://127.0.0.1:9/",
    SSE_MODEL_NAME: "test-model",
    TIMEOUT: "60",
    ...opts.env,
  };
  return {
    base: t.path,
    taskRoot: d("task"),
    source: d("src"),
    results: d("out/results"),
    archive: d("archive"),
    work: d("work"),
    plugins: d("plugins"),
    reference: d("reference/patch.diff"),
    env,
    cleanup: t.cleanup,
  };
}

export interface EntrypointRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  result: any;
  pluginResults: any[] | undefined;
}

export async function runEntrypoint(dirs: RunDirs, argv: string[], opts: { onStart?: (proc: Bun.Subprocess) => void } = {}): Promise<EntrypointRun> {
  const proc = Bun.spawn([entrypointBin, ...argv], { env: dirs.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  opts.onStart?.(proc);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const resultPath = join(dirs.results, "result.json");
  const pluginsPath = join(dirs.archive, "plugins/results.json");
  return {
    exitCode,
    stdout,
    stderr,
    result: existsSync(resultPath) ? JSON.parse(readFileSync(resultPath, "utf8")) : undefined,
    pluginResults: existsSync(pluginsPath) ? JSON.parse(readFileSync(pluginsPath, "utf8")) : undefined,
  };
}

/** A shell agent: `sh -c SCRIPT` (the argv is passed as argv, so no extra quoting). */
export function shAgent(script: string): string[] {
  return ["--", "/bin/sh", "-c", script];
}

/** Live (non-zombie) processes of a uid. */
export function liveProcessesOf(uid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = readFileSync(`/proc/${entry}/status`, "utf8");
      const state = /^State:\s+(\S)/m.exec(s)?.[1];
      const uid0 = /^Uid:\s+(\d+)/m.exec(s)?.[1];
      if (Number(uid0) === uid && state !== "Z" && state !== "X") out.push(Number(entry));
    } catch {
      // exited
    }
  }
  return out;
}

/**
 * Long sleeps unique to this test process (`sleep ${SLEEP + k}`, k < 10), so a check for leftover
 * processes never sees another suite's.
 */
export const SLEEP = 1_000_000 + (process.pid % 100_000) * 10;

/** Live processes running `sleep SLEEP+k` for any of the given k. */
export function sleepsLeft(...ks: number[]): number[] {
  return processesMatching(new RegExp(`sleep (${ks.map((k) => SLEEP + k).join("|")})\\b`));
}

/** Pids whose command line matches (no procps needed on a fresh machine). */
export function processesMatching(pattern: RegExp): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1];
      if (pattern.test(cmd) && state !== "Z") out.push(Number(entry));
    } catch {
      // exited
    }
  }
  return out;
}

/** Live threads of a uid (a thread group whose leader exited shows `Z` but its threads run on). */
export function liveThreadsOf(uid: number): string[] {
  const out: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${entry}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const s = readFileSync(`/proc/${entry}/task/${tid}/status`, "utf8");
        const state = /^State:\s+(\S)/m.exec(s)?.[1];
        if (Number(/^Uid:\s+(\d+)/m.exec(s)?.[1]) === uid && state !== "Z" && state !== "X") out.push(`${entry}/${tid}`);
      } catch {
        // exited
      }
    }
  }
  return out;
}

/** System V IPC objects (shm, sem, msg) whose owner or creator is `uid`. */
export function ipcOf(uid: number): string[] {
  const out: string[] = [];
  for (const kind of ["shm", "sem", "msg"]) {
    const [header, ...rows] = readFileSync(`/proc/sysvipc/${kind}`, "utf8").split("\n");
    const cols = header!.trim().split(/\s+/);
    for (const row of rows) {
      const f = row.trim().split(/\s+/);
      if (f.length >= cols.length && (Number(f[cols.indexOf("uid")]) === uid || Number(f[cols.indexOf("cuid")]) === uid)) out.push(`${kind}:${f[1]}`);
    }
  }
  return out;
}
