/** What the leak audit looks for (src/run/verify/task-secrets.ts), from a task's config, sources.yaml and its Debian tarball. */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { debianPatchNames, fixCommits, taskCve, taskSecrets } from "../../../src/run/verify/task-secrets.ts";
import { tempDir } from "../../helpers/cli.ts";

const work = tempDir("ssebench-secrets-");
afterAll(() => work.cleanup());
const sha = "0123456789abcdef0123456789abcdef01234567";

describe("task secrets", () => {
  test("fix commits: from …/commit/<sha>, cgit's id=, a bare full hash and patch_commit; 12 lowercase digits each", () => {
    const reference = [
      "https://security-tracker.debian.org/tracker/CVE-2024-45490",
      "https://github.com/libexpat/libexpat/pull/887",
      `https://github.com/o/r/commit/${sha.toUpperCase()}`,
      "https://gitlab.gnome.org/GNOME/libxml2/-/commit/8c8753ad5280ee13aee5eec9b0f6eee2ed920f57",
      "https://git.savannah.gnu.org/cgit/x.git/commit/?id=abcdef1",
      "https://example.org/fix.patch?rev=1234567",
    ];
    expect(fixCommits({ reference, patch_commit: "feedfacecafebeef" })).toEqual(["0123456789ab", "8c8753ad5280", "abcdef1", "feedfacecafe"]);
    expect(fixCommits({ reference: null, patch_commit: null })).toEqual([]);
    expect(fixCommits({ reference: null, patch_commit: "not-a-sha" })).toEqual([]);
  });

  test("the CVE: sources.yaml's, else the one the task id names", () => {
    expect(taskCve("expat-cve-2024-45490", { cve: "CVE-2024-45491" })).toBe("CVE-2024-45491");
    expect(taskCve("expat-cve-2024-45490", undefined)).toBe("CVE-2024-45490");
    expect(taskCve("expat-cve-2024-45490", { cve: null })).toBe("CVE-2024-45490");
    expect(taskCve("htmlesc-quote-overflow", undefined)).toBeUndefined();
  });

  test("the package's patch files: *.patch and *.diff under debian/patches/, at any depth", () => {
    const listing = ["debian/", "debian/changelog", "debian/patches/", "debian/patches/series", "debian/patches/CVE-2024-45490.patch", "./debian/patches/sub/fix.diff", "debian/patches/readme", "src/debian/patches/x.patch", ""].join("\n");
    expect(debianPatchNames(listing)).toEqual(["CVE-2024-45490.patch", "fix.diff"]);
  });

  test("from a task folder: CVE, commits and left_out as text; the Debian tarball's patch names (read with tar from the sources cache)", async () => {
    const build = join(work.path, "tarball");
    mkdirSync(join(build, "debian", "patches"), { recursive: true });
    for (const f of ["series", "CVE-2099-0001.patch", "other-fix.patch"]) writeFileSync(join(build, "debian", "patches", f), "x\n");
    const tarball = join(work.path, "p_1.0-1.debian.tar.xz");
    expect(Bun.spawnSync(["tar", "-cJf", tarball, "-C", build, "debian"]).exitCode).toBe(0);
    const hash = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    const cache = join(work.path, "cache");
    mkdirSync(join(cache, "sha256"), { recursive: true });
    writeFileSync(join(cache, "sha256", hash), readFileSync(tarball));
    const folder = join(work.path, "p-cve-2099-0001");
    mkdirSync(join(folder, "upstream"), { recursive: true });
    writeFileSync(
      join(folder, "upstream", "sources.yaml"),
      `package: p\nversion: 1.0-1\ncve: CVE-2099-0001\nleft_out: CVE-2099-0001.patch\nfiles:\n- url: http://deb.invalid/p_1.0-1.debian.tar.xz\n  sha256: ${hash}\n`,
    );
    const secrets = await taskSecrets(folder, "p-cve-2099-0001", { reference: [`https://github.com/o/p/commit/${sha}`], patch_commit: null }, { SSEBENCH_SOURCES_CACHE: cache });
    expect(secrets).toEqual({ text: ["CVE-2099-0001", "0123456789ab", "CVE-2099-0001.patch"], patchNames: ["CVE-2099-0001.patch", "other-fix.patch"] });
    // a task without sources.yaml: the id's CVE only, no package patches
    expect(await taskSecrets(join(work.path, "none"), "x-cve-2099-0002", { reference: null, patch_commit: null }, {})).toEqual({ text: ["CVE-2099-0002"], patchNames: [] });
  });
});
