/**
 * The pieces of `npm run release` (scripts/build/release.ts, docs/release.md): the targets, the target
 * Bun runtime taken from the npm registry (the @oven/bun-linux-* package at the pinned Bun
 * version, checked against package-lock.json's integrity), the ELF check of what was built, and
 * the archive's install note.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ReleaseTarget {
  /** the archive's platform name */
  name: "linux-x64" | "linux-arm64";
  bunTarget: "bun-linux-x64" | "bun-linux-arm64";
  /** the npm package that carries Bun's runtime for this target */
  runtimePackage: string;
  /** ELF e_machine */
  machine: number;
  /** process.arch of a host that runs it */
  arch: string;
}

export const TARGETS: readonly ReleaseTarget[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", machine: 62, arch: "x64" },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", machine: 183, arch: "arm64" },
];

const MACHINES: Record<number, string> = { 62: "x86-64", 183: "aarch64" };

/** The ELF machine of a 64-bit little-endian executable, or a line saying what the file is not. */
export function elfMachine(file: string): { machine: number; name: string } | { problem: string } {
  const head = Buffer.alloc(20);
  const fd = openSync(file, "r");
  let read: number;
  try {
    read = readSync(fd, head, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 20 || head.readUInt32BE(0) !== 0x7f454c46) return { problem: `${file} is not an ELF file` };
  if (head[4] !== 2 || head[5] !== 1) return { problem: `${file} is not a 64-bit little-endian ELF file` };
  const machine = head.readUInt16LE(18);
  return { machine, name: MACHINES[machine] ?? `machine ${machine}` };
}

/** The integrity package-lock.json pins for a package (Bun's optional per-platform packages are in it). */
export function lockedIntegrity(lockFile: string, pkg: string, version: string): string {
  const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { packages?: Record<string, { version?: string; integrity?: string }> };
  const entry = lock.packages?.[`node_modules/${pkg}`];
  if (!entry?.integrity || entry.version !== version) {
    throw new Error(`${lockFile} pins no ${pkg}@${version} (the Bun runtime of a release target); run npm install after changing the bun version`);
  }
  return entry.integrity;
}

export function sha512Integrity(data: Uint8Array): string {
  return `sha512-${createHash("sha512").update(data).digest("base64")}`;
}

function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${p.exitCode}): ${p.stderr.toString().trim().split("\n").slice(-1)[0]}`);
  return p.stdout.toString();
}

/**
 * The target's Bun runtime (package/bin/bun of `npm pack PKG@VERSION`), cached under cacheRoot once
 * its tarball matched the pinned integrity and the binary is an ELF of the target's machine.
 */
export function runtimeFromNpm(target: ReleaseTarget, version: string, integrity: string, cacheRoot: string): string {
  const dir = join(cacheRoot, `${target.runtimePackage.replace("/", "+")}@${version}`);
  const bun = join(dir, "bun");
  if (existsSync(join(dir, ".verified"))) return bun;
  mkdirSync(cacheRoot, { recursive: true });
  const temp = mkdtempSync(`${dir}.partial-`);
  try {
    const packed = JSON.parse(run(["npm", "pack", `${target.runtimePackage}@${version}`, "--json", "--silent", "--pack-destination", temp], temp)) as { filename: string }[];
    const tgz = join(temp, (packed[0] as { filename: string }).filename);
    const got = sha512Integrity(readFileSync(tgz));
    if (got !== integrity) throw new Error(`${target.runtimePackage}@${version} from npm has integrity ${got}, package-lock.json pins ${integrity}`);
    run(["tar", "-xzf", tgz, "package/bin/bun"], temp);
    renameSync(join(temp, "package", "bin", "bun"), join(temp, "bun"));
    const elf = elfMachine(join(temp, "bun"));
    if ("problem" in elf || elf.machine !== target.machine) throw new Error(`${target.runtimePackage}@${version}: bin/bun is ${"problem" in elf ? elf.problem : elf.name}, not ${MACHINES[target.machine]}`);
    rmSync(tgz);
    rmSync(join(temp, "package"), { recursive: true, force: true });
    writeFileSync(join(temp, ".verified"), `${integrity}\n`);
    try {
      renameSync(temp, dir);
    } catch (cause) {
      if (!existsSync(join(dir, ".verified"))) throw cause;
    }
    return bun;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

export function installNote(version: string, target: ReleaseTarget): string {
  return `# ssebench ${version} for ${target.name}

Two self-contained binaries: \`ssebench\` (the CLI) and \`ssebench-entrypoint\` (copied into every
run container). Keep them in the same folder, or set SSEBENCH_ENTRYPOINT to the entrypoint.

    sha256sum -c SHA256SUMS
    sudo install -m 0755 ssebench ssebench-entrypoint /usr/local/bin/
    ssebench tasks list
    ssebench run --task htmlesc-quote-overflow --agent reference

A run needs a Docker engine (DOCKER_HOST or /var/run/docker.sock) with the base images the task
starts FROM; the agents, the tool layer, plugins, models and the demo tasks are inside ssebench.
More: docs/release.md in the ssebench repository.
`;
}
