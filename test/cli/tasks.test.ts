/** `ssebench tasks list/show` as a user runs them: the compiled binary, real files, a real service. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closedPort, demoManifest, digestOf, writeCatalogFiles } from "../catalog/fixtures.ts";
import { type RunningServer, startServer } from "../catalog/server-process.ts";
import { writeSyntheticCatalog } from "../../scripts/bench/synthetic-catalog.ts";
import { hasNoStackTrace, repoRoot, runBinary, ssebench, ssebenchBin, tempDir } from "../helpers/cli.ts";

// Each external manifest is validated with arktype in a fresh process: allow for a busy machine.
setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-tasks-");
const dir = `${tmp.path}/demo`;
let service: RunningServer;

beforeAll(async () => {
  await writeCatalogFiles(dir);
  service = await startServer(["--manifest", dir]);
});
afterAll(async () => {
  await service.stop();
  tmp.cleanup();
});

const PUBLIC = "ghcr.io/42-b3yond-6ug/ssebench";
const STALE_WARNING =
  "The images lock pins task zeta-1 to an image built from other files than the manifest lists; pulling the image by tag instead\n";

function expectOneLineFailure(r: { exitCode: number; stderr: string; stdout: string }, start: string): void {
  expect(r.exitCode).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toStartWith(start);
  expect(hasNoStackTrace(r.stderr)).toBe(true);
}

describe("ssebench tasks list", () => {
  test("with no catalog: the built-in demo dataset, as an aligned table, from any folder", async () => {
    const r = await ssebench(["tasks", "list"], { cwd: "/" });
    expect(r.exitCode).toBe(0);
    const { parseManifest } = await import("../../src/formats/manifest/manifest.ts");
    const demo = await parseManifest(await Bun.file(`${repoRoot}/datasets/demo/manifest.json`).text(), "demo");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID {2,}LANGUAGE {2}PROJECT {2,}TYPE$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/)[0])).toEqual(demo.tasks.map((t) => t.id).sort());
    const column = (lines[0] ?? "").indexOf("LANGUAGE");
    for (const line of lines.slice(1)) expect(line.slice(column - 2, column)).toBe("  ");
  });

  test("--language and --type filter the built-in demo dataset; TYPE is the vulnerability type", async () => {
    const all = await ssebench(["tasks", "list"]);
    expect(all.stdout).toBe(
      [
        "ID                          LANGUAGE  PROJECT   TYPE",
        "fixedbuf-extend-overflow    rust      fixedbuf  Out-of-bounds write (unsafe)",
        "htmlesc-quote-overflow      c         htmlesc   Heap-buffer-overflow WRITE",
        "staticfs-encoded-traversal  go        staticfs  Path traversal",
        "",
      ].join("\n"),
    );
    const heap = await ssebench(["tasks", "list", "--language", "C", "--type", "heap-BUFFER"]);
    expect([heap.exitCode, heap.stdout, heap.stderr]).toEqual([0, "ID                      LANGUAGE  PROJECT  TYPE\nhtmlesc-quote-overflow  c         htmlesc  Heap-buffer-overflow WRITE\n", ""]);
    const write = await ssebench(["tasks", "list", "--type", "write", "--json"]);
    expect((JSON.parse(write.stdout) as { id: string }[]).map((t) => t.id)).toEqual(["fixedbuf-extend-overflow", "htmlesc-quote-overflow"]);
  });

  test("no task matching is an empty list and one line on stderr, exit 0; an unknown language is exit 2", async () => {
    const none = await ssebench(["tasks", "list", "--language", "go", "--type", "heap"]);
    const noneMessage = "No task of the 3 in the catalog at the built-in demo dataset matches the filters\n";
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([0, "ID  LANGUAGE  PROJECT  TYPE\n", noneMessage]);
    const json = await ssebench(["tasks", "list", "--type", "nothing", "--json"]);
    expect([json.exitCode, json.stdout, json.stderr]).toEqual([0, "[]\n", noneMessage]);
    const bad = await ssebench(["tasks", "list", "--language", "java"]);
    expect([bad.exitCode, bad.stdout, bad.stderr]).toEqual([2, "", "ssebench tasks list: --language must be one of c, go, rust, python, not 'java'\n"]);
});

  test("--catalog debian and --catalog demo: the built-in datasets by name, from a folder with no checkout", async () => {
    const { parseManifest } = await import("../../src/formats/manifest/manifest.ts");
    for (const name of ["debian", "demo"]) {
      const r = await ssebench(["tasks", "list", "--catalog", name, "--json"], { cwd: "/" });
      expect(r.exitCode).toBe(0);
      const committed = await parseManifest(await Bun.file(`${repoRoot}/datasets/${name}/manifest.json`).text(), name);
      expect(committed.tasks.length).toBeGreaterThan(0);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((t) => t.id)).toEqual(committed.tasks.map((t) => t.id).sort());
    }
  });

  test("--catalog FILE --json prints the service's GET /tasks array", async () => {
    const r = await ssebench(["tasks", "list", "--catalog", `${dir}/manifest.json`, "--json"], { env: { SSEBENCH_REGISTRY: "reg.example/" } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(STALE_WARNING);
    const tasks = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(tasks.map((t) => t.id)).toEqual(["Alpha-2", "mid-3", "zeta-1"]);
    expect(tasks[0]).toEqual({
      id: "Alpha-2",
      language: "go",
      project: "alpha",
      repository: "https://example.org/Alpha-2",
      base: "reg.example/base-generic-go:1.0.0",
      image: `reg.example/case/demo/alpha-2@${digestOf(1)}`,
      arch: ["amd64"],
      checks: ["build", "poc"],
    });
  });

  test("SSEBENCH_CATALOG names a folder; table cells never carry control characters", async () => {
    const r = await ssebench(["tasks", "list"], { env: { SSEBENCH_CATALOG: dir } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("zeta <&>\uFFFDx");
    expect(r.stdout).not.toContain("\u2028");
  });

  test("--catalog URL reads the service and pins like the local lock does", async () => {
    // Each side against literal values (not one against the other: the same code serves both).
    const expected = [
      ["Alpha-2", "alpha", `${PUBLIC}/case/demo/alpha-2@${digestOf(1)}`],
      ["mid-3", "mid", `${PUBLIC}/case/demo/mid-3:demo-v1`],
      ["zeta-1", "zeta <&>\u2028x", `${PUBLIC}/case/demo/zeta-1:demo-v1`], // stale lock entry: by tag
    ];
    const rows = (tasks: Record<string, unknown>[]) => tasks.map((t) => [t.id, t.project, t.image]);
    for (const catalog of [service.url, dir]) {
      const r = await ssebench(["tasks", "list", "--json", "--catalog", catalog]);
      expect(r.exitCode).toBe(0);
      expect(rows(JSON.parse(r.stdout))).toEqual(expected);
    }
    const served = (await (await fetch(`${service.url}/tasks`)).json()) as Record<string, unknown>[];
    expect(rows(served)).toEqual(expected);
    expect(served[0]).toEqual({
      id: "Alpha-2",
      language: "go",
      project: "alpha",
      repository: "https://example.org/Alpha-2",
      base: `${PUBLIC}/base-generic-go:1.0.0`,
      image: `${PUBLIC}/case/demo/alpha-2@${digestOf(1)}`,
      arch: ["amd64"],
      checks: ["build", "poc"],
    });
  });

  test("a dead URL: one clear line, exit 1", async () => {
    const port = closedPort();
    const r = await ssebench(["tasks", "list", "--catalog", `http://127.0.0.1:${port}/`]);
    expectOneLineFailure(r, `Cannot read the catalog at http://127.0.0.1:${port}/manifest.json: connection refused (is the catalog service running?)\n`);
  });

  test("unreadable and invalid manifests: one line, exit 1", async () => {
    expectOneLineFailure(await ssebench(["tasks", "list", "--catalog", `${tmp.path}/none`]), `Cannot read the catalog at ${tmp.path}/none: ENOENT`);
    const bad = `${tmp.path}/bad`;
    await writeCatalogFiles(bad, { manifest: JSON.stringify({ ...demoManifest(), version: "Not Valid" }), lock: null });
    expectOneLineFailure(await ssebench(["tasks", "list", "--catalog", bad]), `${bad}/manifest.json is not a valid dataset manifest: version`);
  });

  test("a manifest on a pipe (/dev/stdin) is read once: listed when valid, its own problem named when not", async () => {
    const piped = async (manifest: string) => {
      await Bun.write(`${tmp.path}/piped.json`, manifest);
      return runBinary("sh", ["-c", `cat '${tmp.path}/piped.json' | '${ssebenchBin}' tasks list --catalog /dev/stdin`]);
    };
    const listed = await piped(JSON.stringify(demoManifest()));
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain("\nAlpha-2 ");
    expectOneLineFailure(await piped(JSON.stringify({ ...demoManifest(), version: "Not Valid" })), "/dev/stdin is not a valid dataset manifest: version");
  });
});

describe("a reader that stops early", () => {
  // 3,000 tasks: the table (~130 kB) and the JSON both overflow a pipe's 64 kB buffer.
  const big = join(tmp.path, "big");
  beforeAll(() => void writeSyntheticCatalog(big, 3000, 2));

  for (const [name, flags] of [["the table", []], ["--json", ["--json"]]] as const) {
    test(`tasks list, ${name}: ends quietly with exit 0 when the reader closes the pipe`, async () => {
      const args = ["tasks", "list", ...flags];
      const command = `'${ssebenchBin}' ${args.join(" ")} --catalog '${big}/manifest.json'; echo "exit $?" >&2`;
      const proc = Bun.spawn(["sh", "-c", `(${command}) | head -c 1`], { stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(stdout).toHaveLength(1);
      expect(stderr).toBe("exit 0\n");
    });
  }
});

describe("ssebench tasks show", () => {
  test("shows one task's names, pinning and checks", async () => {
    const r = await ssebench(["tasks", "show", "Alpha-2", "--catalog", dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`image       ghcr.io/42-b3yond-6ug/ssebench/case/demo/alpha-2@${digestOf(1)}\n`);
    expect(r.stdout).toContain("checks      build, poc\n");
    expect(r.stdout).toContain("files       5\n");
  });

  test("prints the task statement after the fields: the issue, control characters shown as \uFFFD", async () => {
    const r = await ssebench(["tasks", "show", "mid-3", "--catalog", dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n\n")[1]).toBe("Issue:\na <b> & c\uFFFDline\n");
  });

  test("the built-in debian dataset shows its crash reports' text from the home's task folder, from any folder", async () => {
    const shown = await ssebench(["tasks", "show", "--catalog", "debian", "expat-cve-2024-45490"], { cwd: "/" });
    expect(shown.exitCode).toBe(0);
    const issue = await Bun.file(`${repoRoot}/datasets/debian/expat-cve-2024-45490/sse/reports/issue.md`).text();
    expect(shown.stdout.slice(shown.stdout.indexOf("\n\n") + 2)).toBe(`Crash report reports/issue.md:\n${issue.trimEnd()}\n`);
  });

  test("the built-in demo carries its crash reports' text; a manifest without its task folders says where they are", async () => {
    const shown = await ssebench(["tasks", "show", "htmlesc-quote-overflow"], { cwd: "/" });
    expect(shown.exitCode).toBe(0);
    const task = `${repoRoot}/datasets/demo/htmlesc-quote-overflow`;
    const [issue, asan] = await Promise.all([Bun.file(`${task}/sse/reports/issue.md`).text(), Bun.file(`${task}/sse/reports/asan.txt`).text()]);
    const statement = shown.stdout.slice(shown.stdout.indexOf("\n\n") + 2);
    expect(statement).toBe(`Crash report reports/issue.md:\n${issue.trimEnd()}\n\nCrash report reports/asan.txt:\n${asan.trimEnd()}\n`);
    expect(shown.stdout).toContain("\ntype         Heap-buffer-overflow WRITE\n");
    const alone = `${tmp.path}/alone`;
    await Bun.write(`${alone}/manifest.json`, Bun.file(`${repoRoot}/datasets/demo/manifest.json`));
    const r = await ssebench(["tasks", "show", "staticfs-encoded-traversal", "--catalog", alone]);
    expect(r.stdout.slice(r.stdout.indexOf("\n\n") + 2)).toBe(
      "Crash report reports/issue.md: (its text is not in this catalog: the file sse/reports/issue.md of the task folder)\n",
    );
    // From the dataset folder itself the text is read from the task folder.
    const local = await ssebench(["tasks", "show", "htmlesc-quote-overflow", "--catalog", `${repoRoot}/datasets/demo`]);
    expect(local.stdout.slice(local.stdout.indexOf("\n\n") + 2)).toBe(statement);
  });

  test("--json prints the task as the service's GET /tasks/{id} does", async () => {
    const expected = {
      id: "mid-3",
      language: "go",
      project: "mid",
      repository: "https://example.org/mid-3",
      base: `${PUBLIC}/base-generic-go:1.0.0`,
      image: `${PUBLIC}/case/demo/mid-3:demo-v1`,
      arch: ["amd64"],
      checks: ["build", "poc"],
      files: { Dockerfile: "0".repeat(63) + "7" },
    };
    const r = await ssebench(["tasks", "show", "mid-3", "--json", "--catalog", dir]);
    const served = (await (await fetch(`${service.url}/tasks/mid-3`)).json()) as Record<string, unknown>;
    for (const task of [JSON.parse(r.stdout) as Record<string, unknown>, served]) {
      expect({ ...task, metadata: undefined }).toEqual({ ...expected, metadata: undefined });
      expect(task.metadata).toMatchObject({ id: "mid-3", source: "/src/app", files: { poc: ["sse/pocs/poc"] } });
    }
  });

  test("an unknown task: `Task <id> is not in the catalog at <loc> (…)`, exit 1", async () => {
    expectOneLineFailure(await ssebench(["tasks", "show", "nope", "--catalog", dir]), `Task nope is not in the catalog at ${dir} (ssebench tasks list lists its tasks)\n`);
    expectOneLineFailure(await ssebench(["tasks", "show", "nope"]), "Task nope is not in the catalog at the built-in demo dataset (ssebench tasks list lists its tasks)\n");
  });

  test("no id is a usage error", async () => {
    const r = await ssebench(["tasks", "show"]);
    expect(r.exitCode).toBe(2);
    expect(hasNoStackTrace(r.stderr)).toBe(true);
  });
});

const pilot = join(repoRoot, "../shared/conformance/pilot");
const hasPilot = await Bun.file(`${pilot}/images.lock.json`).exists();
describe.skipIf(!hasPilot)("tasks list on the pilot data (../shared)", () => {
  test("pins 54 tasks by digest and warns about the stale lock entry", async () => {
    const r = await ssebench(["tasks", "list", "--json", "--catalog", pilot]);
    expect(r.exitCode).toBe(0);
    const tasks = JSON.parse(r.stdout) as { id: string; image: string }[];
    expect(tasks).toHaveLength(55);
    expect(tasks.filter((t) => t.image.includes("@sha256:"))).toHaveLength(54);
    expect(r.stderr).toBe(
      "The images lock pins task generic-c-libxml2-xml_commit_0bcd05c to an image built from other files than the manifest lists; pulling the image by tag instead\n",
    );
  });
});
