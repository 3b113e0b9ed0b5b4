/**
 * The `npm` key of agent.yaml: an agent CLI installed from the npm registry on the host (image
 * builds have no network), pinned by version and by the integrity of every package it installs,
 * of which only the named files are copied into the agent's build context.
 *
 * ```yaml
 * npm:
 *   package: "@anthropic-ai/claude-code"
 *   version: 2.1.332
 *   integrity:                       # every package npm installs, as its lockfile records it
 *     "@anthropic-ai/claude-code": sha512-…
 *     "@anthropic-ai/claude-code-linux-x64": sha512-…
 *   files:                           # build-context path (under npm/) → path in the install
 *     claude: node_modules/@anthropic-ai/claude-code-linux-x64/claude
 * ```
 *
 * A CLI written in JavaScript brings its runtime: `with` names other packages of the same install
 * (`with: {"@oven/bun-linux-x64": 1.4.5}`, Bun from npm), and a `files` path may be a folder (the
 * CLI's package, or `node_modules` for a CLI that needs its dependencies, copied whole). A package
 * nested in another's folder is pinned under its path there (`cliui/node_modules/strip-ansi`).
 */
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface NpmCli {
  package: string;
  version: string;
  /** other packages installed beside it (package → exact version), e.g. the runtime of a JavaScript CLI */
  with?: Record<string, string>;
  integrity: Record<string, string>;
  files: Record<string, string>;
  /** a lockfile in the agent's folder (`npm ci` installs exactly its tree, else `npm install` resolves one) */
  lockfile?: string;
  /** its text, read when the agent is loaded (loadNpmLock) */
  lock?: string;
}

const NAME = "(@[a-z0-9][a-z0-9._-]*\\/)?[a-z0-9][a-z0-9._-]*";
const PACKAGE = new RegExp(`^${NAME}$`);
/** An installed package: its name, or its path below node_modules when nested in another's (`a/node_modules/b`). */
const INSTALLED = new RegExp(`^${NAME}(\\/node_modules\\/${NAME})*$`);
const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const INTEGRITY = /^sha512-[A-Za-z0-9+/]+={0,2}$/;
const CONTEXT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const INSTALL_PATH = /^(?!.*(^|\/)\.\.?(\/|$))node_modules(\/[A-Za-z0-9@_./+-]+)?$/;

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks the `npm` mapping; `fail(detail)` makes the error that names the file. */
export function parseNpmCli(value: unknown, fail: (detail: string) => Error): NpmCli {
  if (!isMap(value)) throw fail("npm must be a mapping with package, version, integrity and files");
  const extra = Object.keys(value).filter((k) => !["package", "version", "with", "integrity", "files", "lockfile"].includes(k));
  if (extra.length > 0) throw fail(`npm: unknown key(s): ${extra.join(", ")}`);
  const { package: pkg, version, with: others, integrity, files, lockfile } = value;
  if (typeof pkg !== "string" || !PACKAGE.test(pkg)) throw fail("npm.package must be an npm package name");
  if (typeof version !== "string" || !VERSION.test(version)) throw fail("npm.version must be an exact version such as 1.2.3 (a string)");
  if (others !== undefined && (!isMap(others) || Object.keys(others).length === 0)) throw fail("npm.with must map other packages to install beside it to their exact versions");
  for (const [name, v] of Object.entries(others ?? {})) {
    if (!PACKAGE.test(name) || name === pkg || typeof v !== "string" || !VERSION.test(v)) throw fail(`npm.with.${name} must be another npm package's exact version such as 1.2.3 (a string)`);
  }
  const named = [pkg, ...Object.keys(others ?? {})];
  if (!isMap(integrity) || named.some((n) => !(n in integrity))) throw fail(`npm.integrity must map every installed package (at least ${named.join(", ")}) to its sha512 integrity`);
  for (const [name, sri] of Object.entries(integrity)) {
    if (!INSTALLED.test(name) || typeof sri !== "string" || !INTEGRITY.test(sri)) throw fail(`npm.integrity.${name} must be a sha512-… integrity of an npm package`);
  }
  if (!isMap(files) || Object.keys(files).length === 0) throw fail("npm.files must map at least one build-context name to a path in the install");
  for (const [name, path] of Object.entries(files)) {
    if (!CONTEXT_NAME.test(name) || typeof path !== "string" || !INSTALL_PATH.test(path)) throw fail(`npm.files.${name} must be a path under node_modules/ without '.' or '..' segments`);
  }
  if (lockfile !== undefined && (typeof lockfile !== "string" || !CONTEXT_NAME.test(lockfile))) throw fail("npm.lockfile must be the name of a file in the agent's folder");
  return {
    package: pkg,
    version,
    ...(others ? { with: others as Record<string, string> } : {}),
    integrity: integrity as Record<string, string>,
    files: files as Record<string, string>,
    ...(lockfile !== undefined ? { lockfile } : {}),
  };
}

/** The CLI with its lockfile's text (a regular file of the agent's folder), when it names one. */
export function loadNpmLock(cli: NpmCli, agentDir: string, fail: (detail: string) => Error): NpmCli {
  if (cli.lockfile === undefined) return cli;
  const path = join(agentDir, cli.lockfile);
  try {
    if (!lstatSync(path).isFile()) throw new Error("not a regular file");
    return { ...cli, lock: readFileSync(path, "utf8") };
  } catch (e) {
    throw fail(`npm.lockfile: ${path} cannot be read (${(e as Error).message})`);
  }
}
