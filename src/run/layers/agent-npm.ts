/**
 * Agent CLIs from npm (agent.yaml `npm`, agent-npm-config.ts): installed on the host into a cache
 * keyed by package and version (`$SSEBENCH_NPM_CACHE`, default /var/cache/ssebench/npm), with
 * `--ignore-scripts` (nothing of the package runs on the host), then every installed package's
 * integrity compared with the pinned one. An install is made in a fresh folder and renamed into
 * place only once checked, so a cache entry is complete or absent, and concurrent runs agree.
 * The agent's build context is its folder plus `npm/<name>` for each listed file or folder
 * (hard-linked from the cache where the filesystem allows), so only those reach the image.
 */
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { UserError } from "../../errors.ts";
import type { NpmCli } from "./agent-npm-config.ts";
import { msg } from "../messages.ts";

const DONE = ".ssebench-installed.json";

export function npmCacheRoot(env: NodeJS.ProcessEnv): string {
  return env.SSEBENCH_NPM_CACHE || "/var/cache/ssebench/npm";
}

/** `<package>@<version>`, and a digest of the packages installed with it when there are any. */
export function npmCacheDir(env: NodeJS.ProcessEnv, cli: NpmCli): string {
  const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);
  const others = cli.with ? `+with-${digest(JSON.stringify(Object.entries(cli.with).sort()))}` : "";
  const lock = cli.lock !== undefined ? `+lock-${digest(cli.lock)}` : "";
  return join(npmCacheRoot(env), `${cli.package.replace("/", "+")}@${cli.version}${others}${lock}`);
}

/** What `npm install` is given: the CLI and the packages installed with it. */
export function npmSpecs(cli: NpmCli): string[] {
  return [`${cli.package}@${cli.version}`, ...Object.entries(cli.with ?? {}).map(([name, version]) => `${name}@${version}`)];
}

/**
 * The packages of an install with their recorded integrity (node_modules/.package-lock.json): a
 * top-level package by its name, one nested in another by its path below node_modules
 * (`cliui/node_modules/strip-ansi`), since two versions of a name may both be installed.
 */
export function installedIntegrity(dir: string): Record<string, string> {
  const lock = JSON.parse(readFileSync(join(dir, "node_modules", ".package-lock.json"), "utf8")) as { packages?: Record<string, { integrity?: string }> };
  const out: Record<string, string> = {};
  for (const [path, entry] of Object.entries(lock.packages ?? {})) out[path.replace(/^node_modules\//, "")] = entry.integrity ?? "";
  return out;
}

/** Problems of an install against the pinned integrity (empty when it matches). */
export function integrityProblems(cli: NpmCli, installed: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, sri] of Object.entries(installed)) {
    const pinned = cli.integrity[name];
    if (pinned === undefined) problems.push(`${name} is installed but not pinned`);
    else if (pinned !== sri) problems.push(`${name} has integrity ${sri || "(none)"}, pinned ${pinned}`);
  }
  for (const name of Object.keys(cli.integrity)) if (!(name in installed)) problems.push(`${name} is pinned but was not installed`);
  return problems;
}

/** Installs (once) and returns the cache folder of the CLI; throws a one-line UserError. */
export async function ensureNpmCli(cli: NpmCli, env: NodeJS.ProcessEnv, onInstall?: (what: string) => void): Promise<string> {
  const dir = npmCacheDir(env, cli);
  if (existsSync(join(dir, DONE))) return dir;
  const spec = `${cli.package}@${cli.version}`;
  onInstall?.(spec);
  mkdirSync(dirname(dir), { recursive: true });
  const temp = mkdtempSync(`${dir}.partial-`);
  try {
    // With a lockfile, `npm ci` installs exactly its tree (a CLI's dependencies' ranges would
    // otherwise resolve to newer releases, which the pinned integrity then refuses).
    const deps = Object.fromEntries(npmSpecs(cli).map((spec) => [spec.slice(0, spec.lastIndexOf("@")), spec.slice(spec.lastIndexOf("@") + 1)]));
    writeFileSync(join(temp, "package.json"), `${JSON.stringify({ name: "ssebench-agent-cli", private: true, ...(cli.lock !== undefined ? { dependencies: deps } : {}) })}\n`);
    if (cli.lock !== undefined) writeFileSync(join(temp, "package-lock.json"), cli.lock);
    const how = cli.lock !== undefined ? ["ci"] : ["install", "--save-exact", ...npmSpecs(cli)];
    const proc = Bun.spawn(["npm", how[0] as string, "--prefix", temp, "--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", ...how.slice(1)], {
      stdout: "pipe",
      stderr: "pipe",
      env: { ...env, npm_config_loglevel: "error" },
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new UserError(msg.npmInstallFailed(spec, code, stderr.trim().split("\n").slice(-1)[0] ?? ""));
    const problems = integrityProblems(cli, installedIntegrity(temp));
    if (problems.length > 0) throw new UserError(msg.npmIntegrity(spec, problems.join("; ")));
    for (const path of Object.values(cli.files)) {
      if (!existsSync(join(temp, path))) throw new UserError(msg.npmFileMissing(spec, path));
    }
    writeFileSync(join(temp, DONE), `${JSON.stringify({ package: cli.package, version: cli.version, ...(cli.with ? { with: cli.with } : {}), integrity: cli.integrity })}\n`);
    try {
      renameSync(temp, dir);
    } catch (e) {
      // Another run installed it meanwhile: keep theirs.
      if (!existsSync(join(dir, DONE))) throw e;
    }
    return dir;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** A file hard-linked (a copy where the filesystem cannot link), a folder's files so, links as links. */
function linkTree(from: string, to: string): void {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (stat.isDirectory()) {
    mkdirSync(to, { mode: (stat.mode & 0o777) | 0o700 });
    for (const entry of readdirSync(from)) linkTree(join(from, entry), join(to, entry));
  } else {
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
  }
}

/** A build context: the agent's folder plus npm/<name> for each listed file or folder of the install. */
export function npmBuildContext(agentDir: string, cli: NpmCli, installDir: string): { context: string; cleanup: () => void } {
  const context = mkdtempSync(join(tmpdir(), "ssebench-agent-files-"));
  // The folder itself may be a link (a home's agents/ linking to a checkout's): its content is copied.
  cpSync(realpathSync(agentDir), context, { recursive: true, dereference: false });
  mkdirSync(join(context, "npm"), { recursive: true });
  for (const [name, path] of Object.entries(cli.files)) linkTree(join(installDir, path), join(context, "npm", name));
  return { context, cleanup: () => rmSync(context, { recursive: true, force: true }) };
}
