/**
 * `npm run release`: versioned archives of both binaries for linux-x64 and linux-arm64 in
 * dist/release/ (docs/release.md). Usage: bun scripts/build/release.ts [--target linux-x64|linux-arm64]...
 *
 * Each archive is ssebench-<version>-<platform>.tar.gz with one folder of that name holding
 * ssebench, ssebench-entrypoint, SHA256SUMS (of the two) and INSTALL.md; dist/release/SHA256SUMS
 * covers the archives. A target other than the host's is compiled on that target's Bun runtime
 * from the npm registry (release-parts.ts), never one Bun downloads from elsewhere. The host's
 * binaries are run with --version; every binary must be an ELF of its target's machine.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { npmCacheRoot } from "../../src/run/layers/agent-npm.ts";
import { elfMachine, installNote, lockedIntegrity, runtimeFromNpm, TARGETS } from "./release-parts.ts";

const root = resolve(import.meta.dir, "../..");
const USAGE = "usage: bun scripts/build/release.ts [--target linux-x64|linux-arm64]...";
let values: { target?: string[] };
try {
  ({ values } = parseArgs({ options: { target: { type: "string", multiple: true } } }));
} catch (cause) {
  // node's wording ("Unknown option '--x'", "Option '--target <value>' argument missing"), one line
  console.error(`release: ${(cause as Error).message.split("\n")[0]}; ${USAGE}`);
  process.exit(2);
}
const wanted = values.target ?? TARGETS.map((t) => t.name);
const unknown = wanted.filter((w) => !TARGETS.some((t) => t.name === w));
if (unknown.length > 0) {
  console.error(`release: unknown --target ${unknown.join(", ")} (known: ${TARGETS.map((t) => t.name).join(", ")})`);
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; devDependencies: { bun: string } };
const version = pkg.version;
const bunVersion = pkg.devDependencies.bun;
if (Bun.version !== bunVersion) {
  console.error(`release: this is Bun ${Bun.version}, package.json pins ${bunVersion}; run it with node_modules/.bin/bun`);
  process.exit(1);
}
const outDir = join(root, "dist", "release");
mkdirSync(outDir, { recursive: true });
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const fail = (line: string): never => {
  console.error(`release: ${line}`);
  process.exit(1);
};

for (const target of TARGETS.filter((t) => wanted.includes(t.name))) {
  const started = performance.now();
  const name = `ssebench-${version}-${target.name}`;
  const stage = join(outDir, name);
  rmSync(stage, { recursive: true, force: true });
  const native = target.arch === process.arch;
  const build = [process.execPath, join(root, "scripts", "build", "build.ts"), "--out", stage];
  if (!native) {
    let runtime = "";
    try {
      runtime = runtimeFromNpm(target, bunVersion, lockedIntegrity(join(root, "package-lock.json"), target.runtimePackage, bunVersion), join(npmCacheRoot(process.env), "bun-runtime"));
    } catch (cause) {
      fail(`${target.name}: ${(cause as Error).message} (the cache is SSEBENCH_NPM_CACHE, default /var/cache/ssebench/npm)`);
    }
    console.log(`${target.name}: Bun runtime from npm ${target.runtimePackage}@${bunVersion} (${runtime})`);
    build.push("--target", target.bunTarget, "--executable-path", runtime);
  }
  // Native builds are smoke-tested by build.ts (it runs each binary with --version).
  const built = Bun.spawnSync(build, { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (built.exitCode !== 0) fail(`building ${target.name} failed`);
  for (const file of readdirSync(stage)) if (file.endsWith(".map")) rmSync(join(stage, file));
  const binaries = ["ssebench", "ssebench-entrypoint"];
  for (const bin of binaries) {
    const elf = elfMachine(join(stage, bin));
    if ("problem" in elf) fail(elf.problem);
    else if (elf.machine !== target.machine) fail(`${join(stage, bin)} is ${elf.name}, not the ${target.name} machine`);
    else console.log(`${target.name}: ${bin} is an ELF ${elf.name} executable`);
  }
  writeFileSync(join(stage, "SHA256SUMS"), binaries.map((b) => `${sha256(join(stage, b))}  ${b}\n`).join(""));
  writeFileSync(join(stage, "INSTALL.md"), installNote(version, target));
  const archive = `${name}.tar.gz`;
  // Reproducible: sorted names, root-owned, the commit's time (or 0), gzip without a timestamp.
  const epoch = process.env.SOURCE_DATE_EPOCH ?? (Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: root }).stdout.toString().trim() || "0");
  const tar = Bun.spawnSync(
    ["sh", "-c", `tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@${epoch} -cf - "$1" | gzip -n -6 > "$2"`, "tar", name, archive],
    { cwd: outDir, stderr: "inherit" },
  );
  if (tar.exitCode !== 0) fail(`packing ${archive} failed`);
  rmSync(stage, { recursive: true, force: true });
  const mb = (statSync(join(outDir, archive)).size / 1e6).toFixed(1);
  console.log(`${target.name}: dist/release/${archive} (${mb} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const archives = readdirSync(outDir).filter((f) => f.startsWith(`ssebench-${version}-`) && f.endsWith(".tar.gz")).sort();
writeFileSync(join(outDir, "SHA256SUMS"), archives.map((a) => `${sha256(join(outDir, a))}  ${a}\n`).join(""));
console.log(`dist/release/SHA256SUMS: ${archives.join(", ")}`);
if (!existsSync(join(outDir, "SHA256SUMS"))) fail("no SHA256SUMS written");
