/**
 * `dataset new`'s pieces (src/dataset/new/): the archive's names for a package, the .dsc, the
 * series, where each file of the fix goes, the build system of a tree, the changelog's day, and the
 * Dockerfile it writes (the series without the fix, applied by patch, then one neutral commit).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildScript, detectBuildSystem, languageOf } from "../../../src/dataset/new/build-system.ts";
import { type Dsc, dscUrls, fetchDscFiles, fileUrls, parseDsc, parseSourceVersion, poolFolder } from "../../../src/dataset/new/debian-archive.ts";
import { classifyFixFile, parseSeries } from "../../../src/dataset/new/debian-tree.ts";
import { changelogFixed } from "../../../src/dataset/new/new-command.ts";
import { dockerfile, type Scaffold, sourcesYaml } from "../../../src/dataset/new/scaffold-files.ts";
import { tempDir } from "../../helpers/cli.ts";

const work = tempDir("ssebench-new-unit-");
afterAll(() => work.cleanup());
const sha = (c: string) => c.repeat(64);

describe("the archive's names", () => {
  test("SOURCE=VERSION, the pool folder (lib* by four letters), the .dsc in main then security, without the epoch", () => {
    expect(parseSourceVersion("libcap2=1:2.66-4+deb12u3")).toEqual({ source: "libcap2", version: "1:2.66-4+deb12u3" });
    for (const bad of ["libcap2", "libcap2=", "=1.0", "Lib=1.0", "a b=1"]) expect(parseSourceVersion(bad)).toBeUndefined();
    expect(poolFolder("libcap2")).toBe("libc/libcap2");
    expect(poolFolder("expat")).toBe("e/expat");
    expect(poolFolder("lib")).toBe("l/lib");
    expect(dscUrls("libcap2", "1:2.66-4+deb12u3")).toEqual([
      "http://deb.debian.org/debian/pool/main/libc/libcap2/libcap2_2.66-4+deb12u3.dsc",
      "http://deb.debian.org/debian-security/pool/updates/main/libc/libcap2/libcap2_2.66-4+deb12u3.dsc",
    ]);
  });

  test("a signed .dsc: its fields and the files of Checksums-Sha256", () => {
    const text = [
      "-----BEGIN PGP SIGNED MESSAGE-----",
      "Hash: SHA512",
      "",
      "Format: 3.0 (quilt)",
      "Source: yajl",
      "Version: 2.1.0-3+deb12u2",
      "Checksums-Sha1:",
      ` ${"1".repeat(40)} 10 yajl_2.1.0.orig.tar.gz`,
      "Checksums-Sha256:",
      ` ${sha("a")} 83091 yajl_2.1.0.orig.tar.gz`,
      ` ${sha("b")} 6968 yajl_2.1.0-3+deb12u2.debian.tar.xz`,
      "Files:",
      " 0123 10 yajl_2.1.0.orig.tar.gz",
      "",
      "-----BEGIN PGP SIGNATURE-----",
      "xyz",
      "-----END PGP SIGNATURE-----",
    ].join("\n");
    expect(parseDsc(text, "http://x/yajl.dsc", sha("c"))).toEqual({
      url: "http://x/yajl.dsc",
      sha256: sha("c"),
      source: "yajl",
      version: "2.1.0-3+deb12u2",
      format: "3.0 (quilt)",
      files: [
        { name: "yajl_2.1.0.orig.tar.gz", sha256: sha("a"), size: 83091, url: "http://x/yajl_2.1.0.orig.tar.gz" },
        { name: "yajl_2.1.0-3+deb12u2.debian.tar.xz", sha256: sha("b"), size: 6968, url: "http://x/yajl_2.1.0-3+deb12u2.debian.tar.xz" },
      ],
    });
  });
});

describe("the files of a .dsc, from the pool that has them", () => {
  const MAIN = "http://deb.debian.org/debian/pool/main/p/python-tornado/";
  const SECURITY = "http://deb.debian.org/debian-security/pool/updates/main/p/python-tornado/";
  const orig = new TextEncoder().encode("the orig tarball");
  const origSha = new Bun.CryptoHasher("sha256").update(orig).digest("hex");
  const dsc = (): Dsc => parseDsc(`Source: python-tornado\nVersion: 6.2.0-3+deb12u4\nChecksums-Sha256:\n ${origSha} 16 python-tornado_6.2.0.orig.tar.gz\n`, `${MAIN}python-tornado_6.2.0-3+deb12u4.dsc`, sha("d"));
  /** An archive of the given URLs (anything else 404), recording each request as METHOD URL. */
  const archive = (files: Record<string, Uint8Array | number>, asked: string[]) => async (url: string, init: { method?: string }) => {
    asked.push(`${init.method ?? "GET"} ${url}`);
    const f = files[url];
    if (f === undefined) return new Response("no", { status: 404 });
    return typeof f === "number" ? new Response("err", { status: f }) : new Response(init.method === "HEAD" ? null : f);
  };

  test("beside the .dsc first, then the other pool: a file only the security pool has is taken from there, and its url says so", async () => {
    expect(fileUrls(dsc(), dsc().files[0]!)).toEqual([`${MAIN}python-tornado_6.2.0.orig.tar.gz`, `${SECURITY}python-tornado_6.2.0.orig.tar.gz`]);
    const cache = join(work.path, "pools-cache");
    const asked: string[] = [];
    const d = dsc();
    const paths = await fetchDscFiles(d, cache, archive({ [`${SECURITY}python-tornado_6.2.0.orig.tar.gz`]: orig }, asked));
    expect(asked).toEqual([`GET ${MAIN}python-tornado_6.2.0.orig.tar.gz`, `GET ${SECURITY}python-tornado_6.2.0.orig.tar.gz`]);
    expect(d.files[0]!.url).toBe(`${SECURITY}python-tornado_6.2.0.orig.tar.gz`);
    expect(paths.get("python-tornado_6.2.0.orig.tar.gz")).toBe(join(cache, "sha256", origSha));
    expect(existsSync(join(cache, "sha256", origSha))).toBe(true);
    // cached: only looked for (HEAD), so the url is still one the archive serves
    const again: string[] = [];
    const d2 = dsc();
    await fetchDscFiles(d2, cache, archive({ [`${SECURITY}python-tornado_6.2.0.orig.tar.gz`]: orig }, again));
    expect(again).toEqual([`HEAD ${MAIN}python-tornado_6.2.0.orig.tar.gz`, `HEAD ${SECURITY}python-tornado_6.2.0.orig.tar.gz`]);
    expect(d2.files[0]!.url).toBe(`${SECURITY}python-tornado_6.2.0.orig.tar.gz`);
  });

  test("one line when neither pool has it, when the archive fails, and when the bytes are not the .dsc's", async () => {
    const cache = join(work.path, "pools-cache-errors");
    await expect(fetchDscFiles(dsc(), cache, archive({}, []))).rejects.toThrow(`${MAIN}python-tornado_6.2.0.orig.tar.gz: not in the archive, though ${MAIN}python-tornado_6.2.0-3+deb12u4.dsc lists it`);
    await expect(fetchDscFiles(dsc(), cache, archive({ [`${MAIN}python-tornado_6.2.0.orig.tar.gz`]: 503 }, []))).rejects.toThrow(`${MAIN}python-tornado_6.2.0.orig.tar.gz`);
    const wrong = new TextEncoder().encode("something else");
    await expect(fetchDscFiles(dsc(), cache, archive({ [`${SECURITY}python-tornado_6.2.0.orig.tar.gz`]: wrong }, []))).rejects.toThrow(`${SECURITY}python-tornado_6.2.0.orig.tar.gz has sha256`);
  });
});

describe("the series and the fix", () => {
  test("series: comments, blank lines and -pN options out", () => {
    expect(parseSeries("a.patch\n# old.patch\n\nb.diff -p1\n  c.patch # why\n")).toEqual(["a.patch", "b.diff", "c.patch"]);
  });

  test("a fix's files: code to the reference patch, tests to test.diff, changelogs, docs and debian/ nowhere", () => {
    const cases: [string, string][] = [
      ["src/gd_gif_in.c", "code"],
      ["lib/xmlparse.c", "code"],
      ["tests/gif/bug.c", "tests"],
      ["test/test_api.c", "tests"],
      ["pkg/cors_test.go", "tests"],
      ["tests/test_h11.py", "tests"],
      ["h11/tests/test_io.py", "tests"],
      ["ChangeLog", "dropped"],
      ["NEWS", "dropped"],
      ["CHANGES.md", "dropped"],
      ["doc/api.txt", "dropped"],
      ["debian/changelog", "dropped"],
      ["man/gd.3", "dropped"],
    ];
    for (const [path, kind] of cases) expect([path, classifyFixFile(path)]).toEqual([path, kind]);
  });

  test("the day the fix came: the oldest changelog entry naming the CVE", () => {
    const changelog = [
      "yajl (2.1.0-3+deb12u2) bookworm; urgency=medium",
      "",
      "  * The patch for CVE-2023-33460 turned out to be incomplete.",
      "",
      " -- Tobias Frost <tobi@debian.org>  Mon, 10 Jul 2023 18:06:21 +0200",
      "",
      "yajl (2.1.0-3+deb12u1) bookworm; urgency=medium",
      "",
      "  * Import upstream patch for CVE-2023-33460. (Closes: #1039984)",
      "",
      " -- Tobias Frost <tobi@debian.org>  Sat, 1 Jul 2023 14:55:44 +0200",
      "",
      "yajl (2.1.0-3) unstable; urgency=medium",
      "",
      "  * Bump debhelper compat to 11.",
      "",
      " -- John Stamp <jstamp@mehercule.net>  Tue, 21 Dec 2021 10:00:00 -0800",
    ].join("\n");
    expect(changelogFixed(changelog, "CVE-2023-33460")).toBe("2023-07-01");
    expect(changelogFixed(changelog, "cve-2023-33460")).toBe("2023-07-01");
    expect(changelogFixed(changelog, "CVE-2099-1")).toBeUndefined();
    expect(changelogFixed(changelog, undefined)).toBeUndefined();
  });
});

describe("the build system and the files", () => {
  test("detected by its files, a language's own first; each gets a build.sh", () => {
    const tree = (name: string, files: string[]) => {
      const dir = join(work.path, name);
      mkdirSync(dir, { recursive: true });
      for (const f of files) writeFileSync(join(dir, f), "");
      return dir;
    };
    expect(detectBuildSystem(tree("auto", ["configure.ac", "Makefile.am"]))).toBe("autotools");
    expect(detectBuildSystem(tree("cm", ["CMakeLists.txt", "configure.ac"]))).toBe("cmake");
    expect(detectBuildSystem(tree("me", ["meson.build", "CMakeLists.txt"]))).toBe("meson");
    expect(detectBuildSystem(tree("mk", ["Makefile"]))).toBe("make");
    expect(detectBuildSystem(tree("go", ["go.mod", "Makefile"]))).toBe("go");
    expect(detectBuildSystem(tree("rs", ["Cargo.toml", "Makefile"]))).toBe("cargo");
    expect(detectBuildSystem(tree("py", ["setup.py", "Makefile"]))).toBe("python");
    expect(detectBuildSystem(tree("none", ["README"]))).toBeUndefined();
    expect([languageOf("autotools"), languageOf("go"), languageOf("cargo"), languageOf("python")]).toEqual(["c", "go", "rust", "python"]);
    expect(buildScript("autotools")).toContain('../configure --disable-shared --enable-static CFLAGS="$flags"');
    expect(buildScript("meson")).toContain("-Db_sanitize=address");
    expect(buildScript(undefined)).toContain("exit 1");
  });

  test("the Dockerfile: the series without the fix (its name escaped for sed), a neutral commit; sources.yaml pins the .dsc and its files", () => {
    const s: Scaffold = {
      id: "libcap2-cve-2099-1",
      dsc: { url: "http://deb.debian.org/debian/pool/main/libc/libcap2/libcap2_2.66-4+deb12u3.dsc", sha256: sha("d"), source: "libcap2", version: "1:2.66-4+deb12u3", format: "3.0 (quilt)", files: [{ name: "libcap2_2.66.orig.tar.xz", sha256: sha("e"), size: 1, url: "http://deb.debian.org/debian-security/pool/updates/main/libc/libcap2/libcap2_2.66.orig.tar.xz" }] },
      patch: "fix.[1]*.patch",
      cve: "CVE-2099-1",
      fixed: "2026-04-06",
      language: "c",
      system: "make",
      baseVersion: "1.0.0",
      hasTests: false,
    };
    const text = dockerfile(s);
    expect(text).toContain("FROM ${SSEBENCH_REGISTRY}/base-generic-c:1.0.0\n");
    expect(text).toContain("dpkg-source --no-check --no-copy --skip-patches -x /tmp/upstream/libcap2_2.66-4+deb12u3.dsc /src/libcap2");
    expect(text).toContain("sed -i '/^fix\\.\\[1\\]\\*\\.patch$/d' debian/patches/series");
    expect(text).toContain("echo '/ssebench-build/' >> .gitignore");
    expect(text).toContain('commit -qm "libcap2 2.66"');
    expect(text).not.toContain("CVE");
    const sources = sourcesYaml(s);
    expect(sources).toContain(`- url: http://deb.debian.org/debian/pool/main/libc/libcap2/libcap2_2.66-4+deb12u3.dsc\n  sha256: ${sha("d")}\n`);
    // each file where the archive had it (here the security pool, though the .dsc is in the main one)
    expect(sources).toContain(`- url: http://deb.debian.org/debian-security/pool/updates/main/libc/libcap2/libcap2_2.66.orig.tar.xz\n  sha256: ${sha("e")}\n`);
    expect(sources).toContain("left_out: fix.[1]*.patch\n");
    expect(sources).toContain("tests: here\n");
  });
});
