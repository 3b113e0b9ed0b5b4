/**
 * images/base-images/build.sh as a real process: the tags and the build command (--dry-run), the
 * content hash of its inputs, and, against a stand-in `docker` on PATH (the engine is its
 * neighbour; .ci/run builds the real images), what it does when the hash matches (re-tag only), when
 * it does not (build, record the toolchain versions as labels, tag), and when the build fails (tags
 * untouched). The toolchain itself is checked by the last step of every real build.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, runBinary, tempDir } from "../helpers/cli.ts";

const baseBuild = join(repoRoot, "images/base-images/build.sh");
const here = join(repoRoot, "images/base-images");
const version = readFileSync(join(here, "VERSION"), "utf8").trim();
const work = tempDir("ssebench-base-images-");
afterAll(() => work.cleanup());
const noDatasets = join(work.path, "no-datasets");
mkdirSync(noDatasets, { recursive: true });

const bash = (args: string[], env: Record<string, string> = {}) =>
  runBinary("/bin/bash", [baseBuild, ...args], { env: { SSEBENCH_DATASETS: noDatasets, ...env } });

/** The ssebench.base.inputs label of each `docker build` line of a dry run. */
const inputsOf = (stdout: string) => [...stdout.matchAll(/--label ssebench\.base\.inputs=(\S+)/g)].map((m) => m[1]);

describe("images/base-images/build.sh --dry-run", () => {
  test("tags the VERSION and every base version a dataset manifest names, plain and prefixed", async () => {
    const datasets = join(work.path, "datasets");
    mkdirSync(join(datasets, "one"), { recursive: true });
    writeFileSync(
      join(datasets, "one/manifest.json"),
      JSON.stringify({ tasks: [{ base: "base-generic-c:0.9.0" }, { base: "base-generic-go:1.0.0" }, { base: "base-generic-c:0.9.0" }] }),
    );
    const r = await bash(["--dry-run", "--registry", "reg.test/ns/", "--root", "root:1", "c", "go"], { SSEBENCH_DATASETS: datasets });
    expect(r.exitCode).toBe(0);
    const [c, go] = inputsOf(r.stdout);
    expect(r.stdout.trim().split("\n")).toEqual([
      `docker build --network host --label ssebench.base.version=${version} --label ssebench.base.inputs=${c} ` +
        `--build-arg BASE=root:1 -f ${here}/generic-c/Dockerfile ${here}`,
      `tags: base-generic-c:0.9.0 reg.test/ns/base-generic-c:0.9.0 base-generic-c:${version} reg.test/ns/base-generic-c:${version}`,
      `docker build --network host --label ssebench.base.version=${version} --label ssebench.base.inputs=${go} ` +
        `--build-arg BASE=root:1 -f ${here}/generic-go/Dockerfile ${here}`,
      `tags: base-generic-go:${version} reg.test/ns/base-generic-go:${version}`,
    ]);
  });

  test("defaults: all four languages, SSEBENCH_REGISTRY else the public prefix, the pinned root", async () => {
    const r = await bash(["--dry-run"]);
    const builds = r.stdout.split("\n").filter((l) => l.startsWith("docker build"));
    expect(builds.map((l) => l.split(" ").at(-2))).toEqual(["c", "go", "rust", "python"].map((l) => `${here}/generic-${l}/Dockerfile`));
    expect(r.stdout).toContain(` ghcr.io/42-b3yond-6ug/ssebench/base-generic-python:${version}\n`);
    expect(r.stdout).not.toContain("--build-arg");
    const prefixed = await bash(["--dry-run", "c"], { SSEBENCH_REGISTRY: "r.test" });
    expect(prefixed.stdout).toContain(` r.test/base-generic-c:${version}\n`);
  });

  test("the inputs hash: one per language, stable, and changed by the root and the mirror", async () => {
    const plain = inputsOf((await bash(["--dry-run"])).stdout);
    expect(plain).toHaveLength(4);
    expect(new Set(plain).size).toBe(4);
    for (const h of plain) expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(inputsOf((await bash(["--dry-run"])).stdout)).toEqual(plain);
    const rooted = inputsOf((await bash(["--dry-run", "--root", "other:1"])).stdout);
    const mirrored = await bash(["--dry-run"], { SSEBENCH_DEBIAN_MIRROR: "http://mirror.test/debian" });
    expect(mirrored.stdout).toContain(" --build-arg DEBIAN_MIRROR=http://mirror.test/debian ");
    for (const other of [rooted, inputsOf(mirrored.stdout)]) {
      for (const [i, h] of other.entries()) expect(h).not.toBe(plain[i]);
    }
  });

  test("an unknown language or flag is a usage error", async () => {
    for (const args of [["cobol"], ["--root"], ["--nope"]]) {
      const r = await bash(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toStartWith("usage: images/base-images/build.sh");
    }
  });
});

/**
 * A `docker` that logs its arguments: `image inspect` of a base image answers "<id> $FAKE_INPUTS"
 * (absent when unset), labels answer as a built image has them, `build` writes an image ID to its
 * --iidfile (or fails with FAKE_BUILD_FAIL), `run` prints what the toolchain check records.
 */
function fakeDocker(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const script = `#!/bin/bash
echo "$*" >>"${dir}/calls"
case "$1 $2" in
  "image inspect")
    if [[ "$4" == *range* ]]; then printf 'ssebench.base.version=1\\nssebench.toolchain.gcc=12.2.0\\nssebench.toolchain.go=1.22.12\\n'; exit 0; fi
    [ -n "\${FAKE_INPUTS:-}" ] || exit 1
    echo "sha256:cached $FAKE_INPUTS"; exit 0 ;;
esac
case "$1" in
  build)
    [ -z "\${FAKE_BUILD_FAIL:-}" ] || { echo "E: Unable to locate package golang-1.22-go"; exit 100; }
    [ "\${@: -1}" != - ] || cat >>"${dir}/stdin"
    echo "sha256:built$(wc -l <"${dir}/calls")" >"$3" ;;
  run) printf 'gcc=12.2.0\\ngo=1.22.12\\n' ;;
esac
exit 0
`;
  writeFileSync(join(dir, "docker"), script);
  chmodSync(join(dir, "docker"), 0o755);
  return dir;
}

describe("images/base-images/build.sh against a stand-in docker", () => {
  const run = async (name: string, env: Record<string, string> = {}) => {
    const dir = fakeDocker(join(work.path, name));
    const r = await bash(["go"], { PATH: `${dir}:${process.env.PATH}`, TMPDIR: dir, ...env });
    let calls: string[] = [];
    try {
      calls = readFileSync(join(dir, "calls"), "utf8").trimEnd().split("\n");
    } catch {}
    return { ...r, calls, dir };
  };
  const tags = `base-generic-go:${version} ghcr.io/42-b3yond-6ug/ssebench/base-generic-go:${version}`;

  test("inputs unchanged: no build, the tags are set again, the versions come from the labels", async () => {
    const [hash] = inputsOf((await bash(["--dry-run", "go"])).stdout);
    const r = await run("cached", { FAKE_INPUTS: hash as string });
    expect(r.exitCode).toBe(0);
    expect(r.calls.filter((c) => c.startsWith("build") || c.startsWith("run"))).toEqual([]);
    expect(r.calls.filter((c) => c.startsWith("tag"))).toEqual(tags.split(" ").map((t) => `tag sha256:cached ${t}`));
    expect(r.stdout).toBe(`base-images: base-generic-go up to date: gcc 12.2.0, go 1.22.12 (tags: ${tags})\n`);
  });

  test("inputs changed: build, toolchain versions as labels on top, then the tags", async () => {
    const r = await run("stale", { FAKE_INPUTS: "0".repeat(64) });
    expect(r.exitCode).toBe(0);
    const verbs = r.calls.map((c) => c.split(" ")[0]);
    expect(verbs).toEqual(["image", "build", "run", "build", "tag", "tag", "image"]);
    const [main, probe, label] = r.calls.filter((c) => /^(build|run)/.test(c));
    expect(main).toContain(` -f ${here}/generic-go/Dockerfile ${here}`);
    expect(probe).toMatch(/^run --rm --network none --entrypoint cat sha256:built\d+ \/usr\/local\/share\/ssebench\/toolchain$/);
    expect(label).toMatch(/--label ssebench\.toolchain\.gcc=12\.2\.0 --label ssebench\.toolchain\.go=1\.22\.12 -$/);
    expect(readFileSync(join(r.dir, "stdin"), "utf8")).toMatch(/^FROM sha256:built\d+\n$/);
    expect(r.stdout).toMatch(new RegExp(`^base-images: base-generic-go built in \\d+s: gcc 12\\.2\\.0, go 1\\.22\\.12 \\(tags: ${tags.replaceAll(".", "\\.")}\\)\\n$`));
  });

  test("a failed build: its log's tail and where the whole log is, exit 1, no tag changed", async () => {
    const r = await run("failing", { FAKE_BUILD_FAIL: "1" });
    expect(r.exitCode).toBe(1);
    expect(r.calls.filter((c) => c.startsWith("tag"))).toEqual([]);
    expect(r.stderr).toContain("E: Unable to locate package golang-1.22-go\n");
    expect(r.stderr).toMatch(/base-images: building base-generic-go failed; full log in \S+\.log \(the tags still name the previous image\)\n$/);
  });
});
