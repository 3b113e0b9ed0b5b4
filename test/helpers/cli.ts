/**
 * Runs the compiled binaries as real processes, the way users and CI scripts do.
 * `npm test` builds them first; run `bun run build` before `bun test <file>` on its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dir, "../..");
export const ssebenchBin = join(repoRoot, "dist/ssebench");
export const entrypointBin = join(repoRoot, "dist/ssebench-entrypoint");

/**
 * Which engine and caches this machine's runs use (a second engine beside the machine's own, empty
 * caches: docs/developing.md "CI"), carried into every process a test starts unless it sets them.
 */
const MACHINE_SETTINGS = ["DOCKER_HOST", "SSEBENCH_NPM_CACHE", "SSEBENCH_SOURCES_CACHE"] as const;
function machineSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of MACHINE_SETTINGS) {
    const value = process.env[name];
    if (value) out[name] = value;
  }
  return out;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function runBinary(
  bin: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string } = {},
): Promise<CliResult> {
  const proc = Bun.spawn([bin, ...args], {
    cwd: opts.cwd ?? repoRoot,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...machineSettings(), ...opts.env },
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { exitCode, stdout, stderr };
}

/** `ssebench ARGS…` as a real process. */
export function ssebench(args: string[], opts?: Parameters<typeof runBinary>[2]): Promise<CliResult> {
  return runBinary(ssebenchBin, args, opts);
}

/** A fresh temporary folder, removed by the returned cleanup function. */
export function tempDir(prefix = "ssebench-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** True when the output has no stack trace (the CLI's promise for bad input). */
export function hasNoStackTrace(text: string): boolean {
  return !/\n\s+at .+:\d+/.test(text) && !text.includes("internal error");
}
