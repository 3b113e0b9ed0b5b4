/**
 * The build system of a source tree, for the `sse/build.sh` that `dataset new` writes, and the
 * base image (language) it needs. The build scripts are starting points: each builds into
 * ssebench-build/ (or the tree) with the sanitizer the language's PoCs use, and says what to adjust.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export type BuildSystem = "go" | "cargo" | "python" | "meson" | "cmake" | "autotools" | "make";

/** Checked in this order: a language's own manifest first, then the C build systems, most specific first. */
const MARKERS: readonly [BuildSystem, readonly string[]][] = [
  ["go", ["go.mod"]],
  ["cargo", ["Cargo.toml"]],
  ["python", ["pyproject.toml", "setup.py", "setup.cfg"]],
  ["meson", ["meson.build"]],
  ["cmake", ["CMakeLists.txt"]],
  ["autotools", ["configure.ac", "configure.in", "configure"]],
  ["make", ["Makefile", "makefile", "GNUmakefile"]],
];

export function detectBuildSystem(tree: string): BuildSystem | undefined {
  return MARKERS.find(([, files]) => files.some((f) => existsSync(join(tree, f))))?.[0];
}

/** The task config's `language` and the base image's: base-generic-<language>. */
export function languageOf(system: BuildSystem): "c" | "go" | "rust" | "python" {
  return system === "go" ? "go" : system === "cargo" ? "rust" : system === "python" ? "python" : "c";
}

const ASAN = 'flags="-g -O1 -fsanitize=address -fno-omit-frame-pointer"';

const BODIES: Record<BuildSystem, string[]> = {
  autotools: [
    ASAN,
    "[ -x configure ] || autoreconf -fi >/dev/null",
    "mkdir -p ssebench-build && cd ssebench-build",
    '../configure --disable-shared --enable-static CFLAGS="$flags" CXXFLAGS="$flags" LDFLAGS="-fsanitize=address" >/dev/null',
    "make -j2 >/dev/null",
  ],
  cmake: [ASAN, 'cmake -S . -B ssebench-build -DBUILD_SHARED_LIBS=OFF -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null', "cmake --build ssebench-build -j2"],
  meson: [ASAN, "meson setup ssebench-build -Ddefault_library=static -Db_sanitize=address -Dbuildtype=debug >/dev/null", "meson compile -C ssebench-build -j 2"],
  make: [ASAN, 'make -j2 CFLAGS="$flags" CXXFLAGS="$flags" LDFLAGS="-fsanitize=address"'],
  go: ["go build ./..."],
  cargo: ["cargo build --offline"],
  python: ["python3 -m compileall -q . >/dev/null"],
};

/** A build.sh for the detected system (or one that says what to write when none was found). */
export function buildScript(system: BuildSystem | undefined): string {
  const body = system ? BODIES[system] : ['echo "TODO: build the project (no build system found: no configure, CMakeLists.txt, meson.build, Makefile, go.mod, Cargo.toml or setup.py)" >&2', "exit 1"];
  const what = system ? `a ${system} build` : "no build system found";
  return [
    "#!/bin/bash",
    `# Written by ssebench dataset new (${what}). TODO: build only what the PoC and the tests need, with`,
    "# AddressSanitizer for C and C++, into ssebench-build/ of the tree being graded (the working directory).",
    "set -euo pipefail",
    ...body,
    "",
  ].join("\n");
}
