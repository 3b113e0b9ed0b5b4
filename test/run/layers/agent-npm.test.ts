import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadNpmLock, parseNpmCli } from "../../../src/run/layers/agent-npm-config.ts";
import { installedIntegrity, integrityProblems, npmBuildContext, npmCacheDir, npmSpecs } from "../../../src/run/layers/agent-npm.ts";
import { tempDir } from "../../helpers/cli.ts";

const good = { package: "@anthropic-ai/claude-code", version: "2.1.332", integrity: { "@anthropic-ai/claude-code": "sha512-abc+/=", "@anthropic-ai/claude-code-linux-x64": "sha512-def==" }, files: { claude: "node_modules/@anthropic-ai/claude-code-linux-x64/claude" } };
const fail = (d: string) => new Error(d);
const problem = (v: unknown) => {
  try {
    parseNpmCli(v, fail);
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("agent.yaml npm", () => {
  test("a pinned CLI parses", () => {
    expect(parseNpmCli(good, fail)).toEqual(good);
  });
  test("each problem is one line", () => {
    expect(problem("x")).toBe("npm must be a mapping with package, version, integrity and files");
    expect(problem({ ...good, extra: 1 })).toBe("npm: unknown key(s): extra");
    expect(problem({ ...good, version: "^2" })).toBe("npm.version must be an exact version such as 1.2.3 (a string)");
    expect(problem({ ...good, integrity: { other: "sha512-a" } })).toBe("npm.integrity must map every installed package (at least @anthropic-ai/claude-code) to its sha512 integrity");
    expect(problem({ ...good, integrity: { ...good.integrity, x: "sha1-a" } })).toBe("npm.integrity.x must be a sha512-… integrity of an npm package");
    expect(problem({ ...good, files: { claude: "node_modules/../../etc/passwd" } })).toBe("npm.files.claude must be a path under node_modules/ without '.' or '..' segments");
    expect(problem({ ...good, files: { "../x": "node_modules/a" } })).toBe("npm.files.../x must be a path under node_modules/ without '.' or '..' segments");
    expect(problem({ ...good, files: { claude: "node_modules/../package.json" } })).toBe("npm.files.claude must be a path under node_modules/ without '.' or '..' segments");
    expect(problem({ ...good, integrity: { ...good.integrity, "a/node_modules/../b": "sha512-a" } })).toBe("npm.integrity.a/node_modules/../b must be a sha512-… integrity of an npm package");
  });
  test("a CLI that needs its dependencies ships node_modules whole; a package nested in another's folder is pinned under its path there", () => {
    const deps = { ...good, integrity: { ...good.integrity, "cliui/node_modules/strip-ansi": "sha512-n", "@a/b/node_modules/@c/d": "sha512-m" }, files: { pi: "node_modules" } };
    expect(parseNpmCli(deps, fail)).toEqual(deps);
  });
  test("a lockfile is read from the agent's folder when the agent is loaded; a link or a missing file is one line; it keys the cache", () => {
    const dir = tempDir("ssebench-npm-lockfile-");
    writeFileSync(join(dir.path, "package-lock.json"), "{}\n");
    symlinkSync("/etc/passwd", join(dir.path, "linked.json"));
    const cli = parseNpmCli({ ...good, lockfile: "package-lock.json" }, fail);
    const locked = loadNpmLock(cli, dir.path, fail);
    expect(locked.lock).toBe("{}\n");
    expect(npmCacheDir({ SSEBENCH_NPM_CACHE: "/c" }, locked)).toMatch(/^\/c\/@anthropic-ai\+claude-code@2\.1\.332\+lock-[0-9a-f]{12}$/);
    expect(() => loadNpmLock({ ...cli, lockfile: "linked.json" }, dir.path, fail)).toThrow(`npm.lockfile: ${join(dir.path, "linked.json")} cannot be read (not a regular file)`);
    expect(() => loadNpmLock({ ...cli, lockfile: "none.json" }, dir.path, fail)).toThrow(`npm.lockfile: ${join(dir.path, "none.json")} cannot be read`);
    expect(problem({ ...good, lockfile: "../lock.json" })).toBe("npm.lockfile must be the name of a file in the agent's folder");
    dir.cleanup();
  });
  test("the lockfile's packages: top-level ones by name, nested ones by their path below node_modules", () => {
    const dir = tempDir("ssebench-npm-lock-");
    mkdirSync(join(dir.path, "node_modules"));
    const packages = { "node_modules/strip-ansi": { integrity: "sha512-7" }, "node_modules/cliui/node_modules/strip-ansi": { integrity: "sha512-6" }, "node_modules/@a/b": { integrity: "sha512-a" } };
    writeFileSync(join(dir.path, "node_modules", ".package-lock.json"), JSON.stringify({ packages }));
    expect(installedIntegrity(dir.path)).toEqual({ "strip-ansi": "sha512-7", "cliui/node_modules/strip-ansi": "sha512-6", "@a/b": "sha512-a" });
    dir.cleanup();
  });
  test("an install must match the pinned integrity exactly: no other package, none missing, none changed", () => {
    const cli = parseNpmCli(good, fail);
    expect(integrityProblems(cli, { ...good.integrity })).toEqual([]);
    expect(integrityProblems(cli, { ...good.integrity, extra: "sha512-x" })).toEqual(["extra is installed but not pinned"]);
    expect(integrityProblems(cli, { "@anthropic-ai/claude-code": "sha512-zzz" })).toEqual([
      "@anthropic-ai/claude-code has integrity sha512-zzz, pinned sha512-abc+/=",
      "@anthropic-ai/claude-code-linux-x64 is pinned but was not installed",
    ]);
  });
});

describe("a JavaScript CLI with its runtime", () => {
  const js = { package: "@google/gemini-cli", version: "0.61.0", with: { "@oven/bun-linux-x64": "1.4.5" }, integrity: { "@google/gemini-cli": "sha512-a", "@oven/bun-linux-x64": "sha512-b" }, files: { "gemini-cli": "node_modules/@google/gemini-cli", bun: "node_modules/@oven/bun-linux-x64/bin/bun" } };

  test("`with` names other packages of the install, each pinned too; their specs go to npm install; the cache folder says them", () => {
    const cli = parseNpmCli(js, fail);
    expect(cli).toEqual(js);
    expect(npmSpecs(cli)).toEqual(["@google/gemini-cli@0.61.0", "@oven/bun-linux-x64@1.4.5"]);
    const dir = npmCacheDir({ SSEBENCH_NPM_CACHE: "/c" }, cli);
    expect(dir).toMatch(/^\/c\/@google\+gemini-cli@0\.61\.0\+with-[0-9a-f]{12}$/);
    expect(npmCacheDir({ SSEBENCH_NPM_CACHE: "/c" }, { ...cli, with: { "@oven/bun-linux-x64": "1.4.6" } })).not.toBe(dir);
    expect(npmCacheDir({ SSEBENCH_NPM_CACHE: "/c" }, parseNpmCli(good, fail))).toBe("/c/@anthropic-ai+claude-code@2.1.332");
    expect(problem({ ...js, with: { "@oven/bun-linux-x64": "latest" } })).toBe("npm.with.@oven/bun-linux-x64 must be another npm package's exact version such as 1.2.3 (a string)");
    expect(problem({ ...js, with: {} })).toBe("npm.with must map other packages to install beside it to their exact versions");
    expect(problem({ ...js, integrity: { "@google/gemini-cli": "sha512-a" } })).toBe("npm.integrity must map every installed package (at least @google/gemini-cli, @oven/bun-linux-x64) to its sha512 integrity");
  });

  test("a folder of the install reaches the build context whole: files hard-linked, links kept as links", () => {
    const install = tempDir("ssebench-npm-install-");
    const root = join(install.path, "node_modules", "@google", "gemini-cli");
    mkdirSync(join(root, "bundle", "policies"), { recursive: true });
    writeFileSync(join(root, "bundle", "gemini.js"), "console.log(1)\n");
    writeFileSync(join(root, "bundle", "policies", "a.toml"), "x = 1\n");
    symlinkSync("gemini.js", join(root, "bundle", "main.js"));
    mkdirSync(join(install.path, "node_modules", "@oven", "bun-linux-x64", "bin"), { recursive: true });
    writeFileSync(join(install.path, "node_modules", "@oven", "bun-linux-x64", "bin", "bun"), "ELF");
    const agent = tempDir("ssebench-npm-agent-");
    writeFileSync(join(agent.path, "Dockerfile"), "FROM scratch\n");
    // The agent folder reached through a link (a home's agents/ linking to a checkout's).
    symlinkSync(agent.path, join(install.path, "agent-link"));
    const { context, cleanup } = npmBuildContext(join(install.path, "agent-link"), parseNpmCli(js, fail), install.path);
    try {
      expect(readFileSync(join(context, "npm", "gemini-cli", "bundle", "policies", "a.toml"), "utf8")).toBe("x = 1\n");
      expect(statSync(join(context, "npm", "gemini-cli", "bundle", "gemini.js")).ino).toBe(statSync(join(root, "bundle", "gemini.js")).ino);
      expect(readlinkSync(join(context, "npm", "gemini-cli", "bundle", "main.js"))).toBe("gemini.js");
      expect(readFileSync(join(context, "npm", "bun"), "utf8")).toBe("ELF");
      expect(existsSync(join(context, "Dockerfile"))).toBe(true);
    } finally {
      cleanup();
      install.cleanup();
      agent.cleanup();
    }
  });
});
