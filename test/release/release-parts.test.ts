/** The pieces of `npm run release`: the ELF check, the pinned Bun runtimes, the install note. */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { elfMachine, installNote, lockedIntegrity, sha512Integrity, TARGETS } from "../../scripts/build/release-parts.ts";
import { entrypointBin, repoRoot, ssebenchBin, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-release-test-");
afterAll(() => scratch.cleanup());
const lock = join(repoRoot, "package-lock.json");
const bunVersion = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: { bun: string } }).devDependencies.bun;

describe("elfMachine", () => {
  test.skipIf(process.arch !== "x64")("the host's compiled binaries are x86-64 ELF files", () => {
    expect(elfMachine(ssebenchBin)).toEqual({ machine: 62, name: "x86-64" });
    expect(elfMachine(entrypointBin)).toEqual({ machine: 62, name: "x86-64" });
  });

  test("an aarch64 header is named; a script and a 32-bit ELF are refused", () => {
    const header = Buffer.alloc(64);
    header.writeUInt32BE(0x7f454c46, 0);
    header[4] = 2;
    header[5] = 1;
    header.writeUInt16LE(183, 18);
    writeFileSync(join(scratch.path, "arm"), header);
    expect(elfMachine(join(scratch.path, "arm"))).toEqual({ machine: 183, name: "aarch64" });
    header[4] = 1;
    writeFileSync(join(scratch.path, "elf32"), header);
    expect(elfMachine(join(scratch.path, "elf32"))).toEqual({ problem: `${join(scratch.path, "elf32")} is not a 64-bit little-endian ELF file` });
    writeFileSync(join(scratch.path, "script"), "#!/bin/sh\necho not a binary at all\n");
    expect(elfMachine(join(scratch.path, "script"))).toEqual({ problem: `${join(scratch.path, "script")} is not an ELF file` });
  });
});

describe("the target runtimes", () => {
  test("package-lock.json pins the Bun runtime package of every target at the pinned Bun version", () => {
    for (const t of TARGETS) expect(lockedIntegrity(lock, t.runtimePackage, bunVersion)).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
  });

  test("another version is refused with what to do", () => {
    expect(() => lockedIntegrity(lock, "@oven/bun-linux-aarch64", "0.0.1")).toThrow(
      `${lock} pins no @oven/bun-linux-aarch64@0.0.1 (the Bun runtime of a release target); run npm install after changing the bun version`,
    );
  });

  test("integrity is npm's sha512 form", () => {
    expect(sha512Integrity(new TextEncoder().encode("abc"))).toBe("sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==");
  });
});

test("the install note names the version, the platform and the two binaries", () => {
  const note = installNote("9.9.9", TARGETS[1] as (typeof TARGETS)[number]);
  expect(note.split("\n")[0]).toBe("# ssebench 9.9.9 for linux-arm64");
  expect(note).toContain("sudo install -m 0755 ssebench ssebench-entrypoint /usr/local/bin/");
});
