/**
 * Where `ssebench run` finds agents, the tool layer's Dockerfile, plugins, models and demo tasks:
 * SSEBENCH_HOME, the checkout around the running code, else the copy embedded in the binary
 * (written once into the cache); and where it finds the entrypoint binary.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAgents } from "../../src/run/layers/agents.ts";
import { collectHomeFiles, EMBEDDED_PATHS, extractHome, homeDigest, type HomeModule } from "../../src/run/embedded-home-files.ts";
import { findHome, type HomeSources } from "../../src/run/home.ts";
import { msg } from "../../src/run/messages.ts";
import { repoRoot, ssebenchBin, entrypointBin, runBinary, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-home-test-");
afterAll(() => scratch.cleanup());
let n = 0;
const fresh = (name: string) => {
  const dir = join(scratch.path, `${name}-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const files = collectHomeFiles(repoRoot);
const module: HomeModule = { digest: homeDigest(files), files };
/** A binary in an empty folder (no checkout around it), with or without an embedded home. */
function standalone(embedded: HomeModule | undefined): HomeSources & { dir: string } {
  const dir = fresh("bin");
  return { dir, execPath: join(dir, "ssebench"), sourceDir: join(dir, "src", "run"), embedded: () => embedded };
}

describe("collectHomeFiles", () => {
  test("embeds every agents/* folder with each of its files, and the sandbox Dockerfile, plugins, models and demo tasks", () => {
    const paths = new Set(files.map((f) => f.path));
    for (const agent of listAgents(join(repoRoot, "agents"))) {
      for (const name of readdirSync(join(repoRoot, "agents", agent))) expect(paths.has(`agents/${agent}/${name}`)).toBe(true);
    }
    for (const p of ["images/sandbox/Dockerfile", "runtime/plugins/plugins.yaml", "models/scripted.yaml", "datasets/demo/manifest.json", "images/base-images/build.sh", "setup/debian-root-image.sh", "setup/docker-engine.sh", "setup/registry.sh"]) {
      expect(paths.has(p)).toBe(true);
    }
    expect(files.every((f) => EMBEDDED_PATHS.some((d) => f.path === d || f.path.startsWith(`${d}/`)))).toBe(true);
  });

  test("keeps the executable bit and the bytes", () => {
    const script = files.find((f) => f.path === "images/base-images/build.sh");
    expect(script?.mode).toBe(0o755);
    expect(files.find((f) => f.path === "models/scripted.yaml")?.mode).toBe(0o644);
    expect(Buffer.from(script?.data ?? "", "base64").equals(readFileSync(join(repoRoot, "images/base-images/build.sh")))).toBe(true);
  });

  test("refuses a symlink, naming it", () => {
    const root = fresh("links");
    mkdirSync(join(root, "agents", "a"), { recursive: true });
    symlinkSync("/etc/passwd", join(root, "agents", "a", "agent.yaml"));
    expect(() => collectHomeFiles(root, ["agents"])).toThrow(`${join(root, "agents/a/agent.yaml")}: only regular files and folders can be embedded in the binary`);
  });

  test("a new agent folder changes the digest", () => {
    const root = fresh("digest");
    cpSync(join(repoRoot, "agents"), join(root, "agents"), { recursive: true });
    const before = homeDigest(collectHomeFiles(root, ["agents"]));
    mkdirSync(join(root, "agents", "mine"));
    writeFileSync(join(root, "agents", "mine", "agent.yaml"), "name: mine\n");
    expect(homeDigest(collectHomeFiles(root, ["agents"]))).not.toBe(before);
  });
});

describe("findHome", () => {
  test("outside a checkout it writes the embedded home into the cache once and uses it", () => {
    const bin = standalone(module);
    const cache = fresh("cache");
    const home = findHome({ XDG_CACHE_HOME: cache }, bin);
    expect(home.source).toBe("embedded");
    expect(home.root).toBe(join(cache, "ssebench", "home", module.digest));
    expect(readFileSync(home.sandboxDockerfile, "utf8")).toBe(readFileSync(join(repoRoot, "images/sandbox/Dockerfile"), "utf8"));
    expect(listAgents(home.agentsDir)).toEqual(listAgents(join(repoRoot, "agents")));
    expect(statSync(join(home.root, "images/base-images/build.sh")).mode & 0o777).toBe(0o755);
    expect(home.entrypointBinary).toBe(join(bin.dir, "ssebench-entrypoint"));
    const marker = statSync(join(home.root, ".complete")).mtimeMs;
    expect(findHome({ XDG_CACHE_HOME: cache }, bin).root).toBe(home.root);
    expect(statSync(join(home.root, ".complete")).mtimeMs).toBe(marker);
  });

  test("a half-written home (no completion marker) is written again", () => {
    const cache = fresh("cache");
    const dir = join(cache, module.digest);
    mkdirSync(join(dir, "agents"), { recursive: true });
    expect(extractHome(module, cache)).toBe(dir);
    expect(existsSync(join(dir, "images/sandbox/Dockerfile"))).toBe(true);
  });

  test("SSEBENCH_HOME wins over the embedded copy; one that is not a home is named", () => {
    const bin = standalone(module);
    expect(findHome({ SSEBENCH_HOME: repoRoot }, bin)).toMatchObject({ root: repoRoot, source: "env", agentsDir: join(repoRoot, "agents") });
    const empty = fresh("empty");
    expect(() => findHome({ SSEBENCH_HOME: empty }, bin)).toThrow(msg.homeMissing("agents/ or images/sandbox/Dockerfile", empty));
  });

  test("a binary in a checkout's dist/ uses the checkout and its dist/ssebench-entrypoint", () => {
    const home = findHome({}, { execPath: join(repoRoot, "node_modules", ".bin", "bun"), sourceDir: join(repoRoot, "src", "run"), embedded: () => module });
    expect(home).toMatchObject({ root: repoRoot, source: "checkout", entrypointBinary: join(repoRoot, "dist", "ssebench-entrypoint") });
    expect(findHome({}, { execPath: ssebenchBin, sourceDir: "/$bunfs/root", embedded: () => module }).entrypointBinary).toBe(entrypointBin);
  });

  test("SSEBENCH_ENTRYPOINT names the entrypoint binary", () => {
    expect(findHome({ XDG_CACHE_HOME: fresh("cache"), SSEBENCH_ENTRYPOINT: "/opt/e" }, standalone(module)).entrypointBinary).toBe("/opt/e");
  });

  test("from source outside a checkout, with nothing embedded, it says to set SSEBENCH_HOME", () => {
    expect(() => findHome({}, standalone(undefined))).toThrow(msg.homeNotEmbedded());
  });
});

describe("the compiled ssebench outside a checkout", () => {
  test("lists the checkout's agents from its embedded copy", async () => {
    const dir = fresh("dist");
    // A hard link where the filesystem allows (no 116 MB copy): the binary's own path is then outside the checkout.
    try {
      linkSync(ssebenchBin, join(dir, "ssebench"));
    } catch {
      cpSync(ssebenchBin, join(dir, "ssebench"));
    }
    const cache = fresh("cache");
    const r = await runBinary(join(dir, "ssebench"), ["run", "--task", "htmlesc-quote-overflow", "--agent", "no-such-agent"], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
    expect(r.stderr.trim()).toBe(msg.unknownAgent("no-such-agent", listAgents(join(repoRoot, "agents"))));
    expect(r.exitCode).toBe(1);
    const [digest] = readdirSync(join(cache, "ssebench", "home"));
    expect(listAgents(join(cache, "ssebench", "home", digest as string, "agents"))).toEqual(listAgents(join(repoRoot, "agents")));
  });
});
