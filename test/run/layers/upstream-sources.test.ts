/** Pinned upstream sources: real HTTP (a local server), a real cache folder, real staged contexts. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPinnedSources, fetchPinnedSources, readPinnedSources, readTaskDates, stageUpstreamContext } from "../../../src/run/layers/upstream-sources.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const served: Record<string, string> = { "/pool/x_1.0-1.dsc": "dsc text\n", "/pool/x_1.0.orig.tar.gz": "orig bytes" };
let server: ReturnType<typeof Bun.serve>;
let base: string;
let hits: string[];
let root: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      if (path === "/broken") return new Response("no", { status: 500 });
      const body = served[path];
      return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  root = mkdtempSync(join(tmpdir(), "deb1-sources-test-"));
});
afterAll(() => {
  server.stop(true);
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** A task folder with upstream/sources.yaml listing `files`, and a fresh cache folder. */
function task(files: { path: string; sha256: string }[]): { folder: string; cacheDir: string } {
  hits = [];
  const folder = join(root, `task-${++n}`);
  mkdirSync(join(folder, "upstream"), { recursive: true });
  writeFileSync(join(folder, "Dockerfile"), "FROM scratch\n");
  const list = files.map((f) => `- url: ${base}${f.path}\n  sha256: ${f.sha256}\n`).join("");
  writeFileSync(join(folder, "upstream", "sources.yaml"), `package: x\nversion: 1.0-1\nfiles:\n${list}`);
  return { folder, cacheDir: join(root, `cache-${n}`) };
}
const good = () => [
  { path: "/pool/x_1.0-1.dsc", sha256: sha(served["/pool/x_1.0-1.dsc"] as string) },
  { path: "/pool/x_1.0.orig.tar.gz", sha256: sha(served["/pool/x_1.0.orig.tar.gz"] as string) },
];
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("pinned upstream sources", () => {
  test("a folder without upstream/sources.yaml builds from itself", async () => {
    const folder = join(root, "plain");
    mkdirSync(folder, { recursive: true });
    expect(await readPinnedSources(folder)).toBeUndefined();
    expect(await stageUpstreamContext(folder, { cacheDir: join(root, "unused") })).toBeUndefined();
  });

  test("the files are fetched, checked, cached by hash and staged beside sources.yaml; a second build fetches nothing", async () => {
    const { folder, cacheDir } = task(good());
    const downloads: string[] = [];
    const staged = await stageUpstreamContext(folder, { cacheDir, onDownload: (f) => downloads.push(f.name) });
    expect(staged).toBeDefined();
    expect(downloads).toEqual(["x_1.0-1.dsc", "x_1.0.orig.tar.gz"]);
    expect(readFileSync(join(staged!.context, "upstream", "x_1.0.orig.tar.gz"), "utf8")).toBe("orig bytes");
    expect(readFileSync(join(staged!.context, "Dockerfile"), "utf8")).toBe("FROM scratch\n");
    expect(existsSync(join(cacheDir, "sha256", sha("dsc text\n")))).toBe(true);
    expect(existsSync(join(folder, "upstream", "x_1.0-1.dsc"))).toBe(false);
    staged!.cleanup();
    expect(existsSync(staged!.context)).toBe(false);

    hits = [];
    const again = await stageUpstreamContext(folder, { cacheDir, onDownload: (f) => downloads.push(`again ${f.name}`) });
    expect(hits).toEqual([]);
    expect(downloads).toHaveLength(2);
    again!.cleanup();
  });

  test("a file whose bytes differ from the pin is refused and not cached", async () => {
    const files = good();
    files[1] = { path: "/pool/x_1.0.orig.tar.gz", sha256: "a".repeat(64) };
    const { folder, cacheDir } = task(files);
    const message = await failure(stageUpstreamContext(folder, { cacheDir }));
    expect(message).toBe(
      `${join(folder, "upstream", "sources.yaml")}: ${base}/pool/x_1.0.orig.tar.gz has sha256 ${sha("orig bytes")}, but sources.yaml pins ${"a".repeat(64)}`,
    );
    expect(existsSync(join(cacheDir, "sha256", "a".repeat(64)))).toBe(false);
  });

  test("a pinned version that left the archive (HTTP 404) fails with one line saying so", async () => {
    const { folder, cacheDir } = task([{ path: "/pool/x_0.9-1.dsc", sha256: "b".repeat(64) }]);
    expect(await failure(stageUpstreamContext(folder, { cacheDir }))).toBe(
      `${join(folder, "upstream", "sources.yaml")}: ${base}/pool/x_0.9-1.dsc is no longer in the archive (HTTP 404): x 1.0-1 has left it; pin a version the archive has`,
    );
  });

  test("other HTTP failures and unreachable hosts name the URL and the cause", async () => {
    const { folder, cacheDir } = task([{ path: "/broken", sha256: "c".repeat(64) }]);
    expect(await failure(stageUpstreamContext(folder, { cacheDir }))).toBe(`${join(folder, "upstream", "sources.yaml")}: cannot download ${base}/broken: HTTP 500`);
    const pins = checkPinnedSources("s.yaml", { package: "x", version: "1", files: [{ url: "http://127.0.0.1:1/x.dsc", sha256: "d".repeat(64) }] });
    expect(await failure(fetchPinnedSources(pins, { cacheDir }))).toStartWith("s.yaml: cannot download http://127.0.0.1:1/x.dsc: ");
  });

  test("a cache entry changed after it was cached is reported, not used", async () => {
    const { folder, cacheDir } = task(good());
    (await stageUpstreamContext(folder, { cacheDir }))!.cleanup();
    const entry = join(cacheDir, "sha256", sha("orig bytes"));
    writeFileSync(entry, "tampered");
    expect(await failure(stageUpstreamContext(folder, { cacheDir }))).toBe(
      `The cached copy ${entry} of ${base}/pool/x_1.0.orig.tar.gz has sha256 ${sha("tampered")}, not ${sha("orig bytes")}; delete it to fetch it again`,
    );
  });

  test("each malformed sources.yaml is one line naming the file and key", () => {
    const problem = (data: unknown) => {
      try {
        checkPinnedSources("t/upstream/sources.yaml", data);
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    };
    const file = { url: "http://deb.debian.org/debian/pool/main/x/x/x_1.dsc", sha256: "e".repeat(64) };
    expect(problem([])).toBe("t/upstream/sources.yaml: must be a mapping");
    expect(problem({ version: "1", files: [file] })).toBe("t/upstream/sources.yaml: package: must be a non-empty string");
    expect(problem({ package: "x", version: "1", files: [] })).toBe("t/upstream/sources.yaml: files: must be a non-empty list of {url, sha256}");
    expect(problem({ package: "x", version: "1", files: [{ ...file, sha256: "E".repeat(64) }] })).toBe("t/upstream/sources.yaml: files[0].sha256: must be 64 lowercase hex digits");
    expect(problem({ package: "x", version: "1", files: [{ ...file, url: "ftp://h/x" }] })).toBe("t/upstream/sources.yaml: files[0].url: must be an http(s) URL of a file");
    expect(problem({ package: "x", version: "1", files: [{ ...file, url: "http://h/a/..%2Fx" }] })).toBe("t/upstream/sources.yaml: files[0].url: '../x' is not a plain file name");
    expect(problem({ package: "x", version: "1", files: [file, file] })).toBe("t/upstream/sources.yaml: files[1].url: a second file named x_1.dsc");
    // URLs the pattern lets through but that do not parse, or whose escapes do not decode
    expect(problem({ package: "x", version: "1", files: [{ ...file, url: "http://[deb/x.dsc" }] })).toBe("t/upstream/sources.yaml: files[0].url: must be an http(s) URL of a file");
    expect(problem({ package: "x", version: "1", files: [{ ...file, url: "http://h/x_%zz.dsc" }] })).toBe("t/upstream/sources.yaml: files[0].url: must be an http(s) URL of a file");
  });

  test("a cache folder that cannot be made is one line naming it", async () => {
    const { folder } = task(good());
    const blocker = join(root, `blocker-${++n}`);
    writeFileSync(blocker, "a file where the cache folder would be");
    expect(await failure(stageUpstreamContext(folder, { cacheDir: blocker }))).toStartWith(`Cannot write the sources cache ${blocker}: ENOTDIR`);
  });
});

describe("readTaskDates (the run's record of the task's days)", () => {
  const debian = join(import.meta.dir, "..", "..", "..", "datasets", "debian");
  test("a Debian task's published and fixed days, unquoted YAML dates read as days", async () => {
    expect(await readTaskDates(join(debian, "cjson-cve-2023-53154"))).toEqual({ published: "2025-05-23", fixed: "2025-06-13" });
  });
  test("nulls without a folder, without sources.yaml, without the fields, or for a file that is not valid", async () => {
    const none = { published: null, fixed: null };
    expect(await readTaskDates(undefined)).toEqual(none);
    expect(await readTaskDates(join(import.meta.dir, "..", "..", "..", "datasets", "demo", "htmlesc-quote-overflow"))).toEqual(none);
    const { folder } = task(good());
    expect(await readTaskDates(folder)).toEqual(none);
    writeFileSync(join(folder, "upstream", "sources.yaml"), "package: x\nversion: 1\npublished: 2024-02-30\nfiles: []\n");
    expect(await readTaskDates(folder)).toEqual(none);
    writeFileSync(join(folder, "upstream", "sources.yaml"), `package: x\nversion: '1'\npublished: '2024-02-29'\nfiles:\n- url: ${base}/pool/x_1.0-1.dsc\n  sha256: ${"a".repeat(64)}\n`);
    expect(await readTaskDates(folder)).toEqual({ published: "2024-02-29", fixed: null });
  });
});
