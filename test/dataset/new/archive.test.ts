/**
 * `ssebench dataset new` against Debian's real archive (reachable from development and CI
 * machines): a small package (yajl, bookworm's point-release version with three CVE patches) into a
 * scratch dataset, one whose files are split between the main and the security pool (python-tornado),
 * and the one-line errors: a version the archive lacks, a patch the series lacks,
 * a folder that exists, a bad command line.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ssebench, tempDir } from "../../helpers/cli.ts";

setDefaultTimeout(120_000);
const work = tempDir("ssebench-new-archive-");
afterAll(() => work.cleanup());
const dir = join(work.path, "ds");
mkdirSync(dir);
writeFileSync(join(dir, "dataset.yaml"), "version: new-1\n");
const env = { SSEBENCH_SOURCES_CACHE: join(work.path, "cache") };
const VERSION = "2.1.0-3+deb12u2";

describe("dataset new --debian against the archive", () => {
  test("yajl: pins the .dsc and its files, leaves the fix out, writes the diffs, a cmake build.sh and TODOs", async () => {
    const r = await ssebench(["dataset", "new", "--debian", `yajl=${VERSION}`, "--patch", "CVE-2023-33460.patch", "--dir", dir], { env });
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    const task = join(dir, "yajl-cve-2023-33460");
    expect(r.stdout).toContain(`found http://deb.debian.org/debian/pool/main/y/yajl/yajl_${VERSION}.dsc\n`);
    expect(r.stdout).toContain("build system: cmake; base image: base-generic-c:");
    const sources = readFileSync(join(task, "upstream", "sources.yaml"), "utf8");
    const pinned = [...sources.matchAll(/- url: (\S+)\n {2}sha256: ([0-9a-f]{64})/g)];
    expect(pinned.map((p) => p[1]!.split("/").at(-1))).toEqual([`yajl_${VERSION}.dsc`, "yajl_2.1.0.orig.tar.gz", `yajl_${VERSION}.debian.tar.xz`]);
    for (const [, , sha] of pinned) expect(existsSync(join(env.SSEBENCH_SOURCES_CACHE, "sha256", sha as string))).toBe(true);
    expect(sources).toContain("cve: CVE-2023-33460\n");
    expect(sources).toContain("fixed: 2023-07-01 ");
    expect(sources).toContain("left_out: CVE-2023-33460.patch\n");
    const patch = readFileSync(join(task, "sse", "diffs", "patch.diff"), "utf8");
    expect(patch).toStartWith("diff --git a/src/yajl_tree.c b/src/yajl_tree.c\n");
    expect(patch).toContain("+        while(ctx.stack != NULL) {");
    const dockerfile = readFileSync(join(task, "Dockerfile"), "utf8");
    expect(dockerfile).toContain("sed -i '/^CVE-2023-33460\\.patch$/d' debian/patches/series");
    expect(dockerfile).toContain('commit -qm "yajl 2.1.0"');
    expect(readFileSync(join(task, "sse", "build.sh"), "utf8")).toContain("cmake -S . -B ssebench-build");
    // what is left is what validate names: the TODOs
    const v = await ssebench(["dataset", "validate", dir]);
    expect(v.exitCode).toBe(1);
    expect(v.stdout + v.stderr).toContain("upstream/sources.yaml: published: must be a date, YYYY-MM-DD");
    const again = await ssebench(["dataset", "new", "--debian", `yajl=${VERSION}`, "--patch", "CVE-2023-33460.patch", "--dir", dir], { env });
    expect([again.exitCode, again.stderr.trim()]).toEqual([1, `${task}: already exists; choose another --id or remove it`]);
  });

  test("python-tornado: a .dsc in the main pool whose orig tarball only the security pool has is pinned from there", async () => {
    const version = "6.2.0-3+deb12u4";
    const r = await ssebench(["dataset", "new", "--debian", `python-tornado=${version}`, "--patch", "CVE-2023-28370-1.patch", "--cve", "CVE-2023-28370", "--dir", dir], { env });
    expect([r.exitCode, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toContain(`found http://deb.debian.org/debian/pool/main/p/python-tornado/python-tornado_${version}.dsc\n`);
    const sources = readFileSync(join(dir, "python-tornado-cve-2023-28370", "upstream", "sources.yaml"), "utf8");
    expect([...sources.matchAll(/- url: (\S+)/g)].map((p) => p[1])).toEqual([
      `http://deb.debian.org/debian/pool/main/p/python-tornado/python-tornado_${version}.dsc`,
      "http://deb.debian.org/debian-security/pool/updates/main/p/python-tornado/python-tornado_6.2.0.orig.tar.gz",
      `http://deb.debian.org/debian/pool/main/p/python-tornado/python-tornado_${version}.debian.tar.xz`,
    ]);
  });

  test("one line per refusal: a version not in the archive, a patch not in the series (exit 1), a bad command line (exit 2)", async () => {
    const gone = await ssebench(["dataset", "new", "--debian", "yajl=2.1.0-9", "--patch", "x.patch", "--dir", dir], { env });
    expect([gone.exitCode, gone.stderr.trim()]).toEqual([
      1,
      "yajl 2.1.0-9 is not in the archive (no http://deb.debian.org/debian/pool/main/y/yajl/yajl_2.1.0-9.dsc nor http://deb.debian.org/debian-security/pool/updates/main/y/yajl/yajl_2.1.0-9.dsc)",
    ]);
    const notInSeries = await ssebench(["dataset", "new", "--debian", `yajl=${VERSION}`, "--patch", "CVE-2099-1.patch", "--dir", dir], { env });
    expect([notInSeries.exitCode, notInSeries.stderr.trim()]).toEqual([
      1,
      `CVE-2099-1.patch is not in the patch series of yajl ${VERSION} (it has: dynamically-link-tools.patch, multiarch.patch, CVE-2017-16516.patch, CVE-2022-24795.patch, CVE-2023-33460.patch)`,
    ]);
    const usage = await ssebench(["dataset", "new", "--debian", "yajl"], { env });
    expect([usage.exitCode, usage.stderr.trim()]).toEqual([2, "usage: ssebench dataset new --debian SOURCE=VERSION --patch NAME [--cve CVE] [--id ID] [--dir DIR]"]);
    const shape = await ssebench(["dataset", "new", "--debian", "yajl", "--patch", "p"], { env });
    expect([shape.exitCode, shape.stderr.trim()]).toEqual([2, "--debian yajl: must be SOURCE=VERSION, e.g. libgd2=2.3.3-9+deb12u1"]);
    const noDataset = await ssebench(["dataset", "new", "--debian", `yajl=${VERSION}`, "--patch", "p", "--dir", work.path], { env });
    expect([noDataset.exitCode, noDataset.stderr.trim()]).toEqual([1, `${work.path}: not a dataset folder (no dataset.yaml)`]);
  });
});
