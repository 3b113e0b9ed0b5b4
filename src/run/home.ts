/**
 * The ssebench home: the folder that holds agents/, images/sandbox/, runtime/plugins/, models/
 * and datasets/demo/ (docs/release.md "Where ssebench finds its files"), and the entrypoint binary.
 * In order: `SSEBENCH_HOME` (a checkout, for development and tests); the checkout the running
 * code belongs to (dist/ssebench or `bun src/ssebench.ts` inside one); else the copy embedded in
 * the binary, written once into the cache. The entrypoint: `SSEBENCH_ENTRYPOINT`; else
 * ssebench-entrypoint beside the running binary; else the checkout's dist/. And where run keeps
 * its caches (cacheDir).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { UserError } from "../errors.ts";
import { extractHome, type HomeModule } from "./embedded-home-files.ts";
import { msg } from "./messages.ts";

/** <XDG cache>/ssebench/<name>: per-user caches that only ever save time. */
export function cacheDir(env: NodeJS.ProcessEnv, name: string): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "ssebench", name);
}

export interface Home {
  root: string;
  agentsDir: string;
  sandboxDockerfile: string;
  pluginsDir: string;
  entrypointBinary: string;
  /** where root came from (for messages and `--version`-like reports) */
  source?: "env" | "checkout" | "embedded";
}

function looksLikeHome(dir: string): boolean {
  return existsSync(join(dir, "agents")) && existsSync(join(dir, "images", "sandbox", "Dockerfile"));
}

/** The embedded files; undefined when running from source without a build (no generated module). */
function embeddedModule(): HomeModule | undefined {
  try {
    // require, not import: findHome stays synchronous; the bundler inlines the module.
    return require("./embedded-home.gen.js") as HomeModule;
  } catch {
    return undefined;
  }
}

export interface HomeSources {
  execPath: string;
  sourceDir: string;
  embedded: () => HomeModule | undefined;
}

const defaultSources: HomeSources = { execPath: process.execPath, sourceDir: import.meta.dir, embedded: embeddedModule };

export function findHome(env: NodeJS.ProcessEnv = process.env, sources: HomeSources = defaultSources): Home {
  const beside = join(dirname(sources.execPath), "ssebench-entrypoint");
  const entrypoint = (root: string | undefined) =>
    env.SSEBENCH_ENTRYPOINT || (existsSync(beside) || !root ? beside : join(root, "dist", "ssebench-entrypoint"));
  if (env.SSEBENCH_HOME) {
    const root = resolve(env.SSEBENCH_HOME);
    if (!looksLikeHome(root)) throw new UserError(msg.homeMissing("agents/ or images/sandbox/Dockerfile", root));
    return homeAt(root, entrypoint(root), "env");
  }
  const checkout = [resolve(dirname(sources.execPath), ".."), resolve(sources.sourceDir, "../..")].find(looksLikeHome);
  if (checkout) return homeAt(checkout, entrypoint(checkout), "checkout");
  const mod = sources.embedded();
  if (!mod) throw new UserError(msg.homeNotEmbedded());
  return homeAt(extractHome(mod, cacheDir(env, "home")), entrypoint(undefined), "embedded");
}

function homeAt(root: string, entrypointBinary: string, source: Home["source"]): Home {
  return {
    root,
    agentsDir: join(root, "agents"),
    sandboxDockerfile: join(root, "images", "sandbox", "Dockerfile"),
    pluginsDir: join(root, "runtime", "plugins"),
    entrypointBinary,
    source,
  };
}
