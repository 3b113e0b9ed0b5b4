import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deriveChecks } from "../../src/dataset/build-manifest.ts";
import { runManifest } from "../../src/dataset/manifest-command.ts";
import { parseManifest, renderManifest } from "../../src/formats/manifest/manifest.ts";
import type { TaskFiles, TaskScripts } from "../../src/formats/manifest/manifest-types.ts";
import { tempDir } from "../helpers/cli.ts";
import { goodConfig, writeDataset, writeTask } from "./fixture.ts";

const tmp = tempDir("ssebench-manifest-");
afterAll(tmp.cleanup);
const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

function checksOf(scripts: Partial<TaskScripts>, files: Partial<TaskFiles>) {
  const none = { build: null, run: null, test: null, patch: null, future_test: null, security_test: null, intent_test: null, poc: null };
  return deriveChecks({ scripts: { ...none, ...scripts }, files: { ...none, ...files } } as never);
}

describe("checks derivation (§2.1)", async () => {
  test("spec vectors", async () => {
    expect(checksOf({}, {})).toEqual([]);
    expect(checksOf({ build: "b", run: "r" }, {})).toEqual(["build"]);
    expect(checksOf({ run: "r" }, { poc: ["p"] })).toEqual(["poc"]);
    expect(checksOf({ test: "t" }, { future_test: "f", security_test: "s" })).toEqual(["function_test", "intent_test"]);
    expect(checksOf({}, { future_test: "f" })).toEqual([]);
    expect(checksOf({ run: "r" }, { poc: [] })).toEqual([]);
  });
});

describe("dataset manifest", async () => {
  const root = writeDataset(join(tmp.path, "demo"), ["b-task", "A-task"]);
  writeTask(root, "b-task", {
    ".hidden": "dot\n",
    "sse/pocs/crlf.txt": "one\r\ntwo\r\n",
    "Z.txt": "upper\n",
    "sse/config.yaml": goodConfig("b-task").replace('issue: "It crashes on long input."', 'issue: ""\n  bug_description: "  spaced  "'),
  });

  test("-o - prints the manifest: tasks by id, keys in order, files of every kind, metadata complete", async () => {
    const out = await runManifest({ dir: root, output: "-" });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe("");
    const m = JSON.parse(out.stdout);
    expect(Object.keys(m)).toEqual(["dataset", "version", "tasks"]);
    expect(m.dataset).toBe("demo");
    expect(m.version).toBe("demo-v1");
    expect(m.tasks.map((t: { id: string }) => t.id)).toEqual(["A-task", "b-task"]);
    const [a, b] = m.tasks;
    expect(Object.keys(a)).toEqual(["id", "language", "project", "repository", "base", "image", "arch", "checks", "files", "metadata"]);
    expect(a.image).toBe("case/demo/a-task");
    expect(a.base).toBe("base-generic-c:1.0.0");
    expect(a.arch).toEqual(["amd64"]);
    expect(a.checks).toEqual(["build", "poc", "function_test", "intent_test"]);
    expect(Object.keys(b.files)).toEqual([
      ".hidden", "Dockerfile", "Z.txt", "src/main.c", "sse/build.sh", "sse/config.yaml", "sse/diffs/patch.diff",
      "sse/diffs/test.diff", "sse/pocs/crlf.txt", "sse/pocs/poc.bin", "sse/run.sh", "sse/test.sh",
    ]);
    expect(b.files["sse/pocs/crlf.txt"]).toBe(sha("one\r\ntwo\r\n"));
    expect(b.files["sse/pocs/poc.bin"]).toBe(sha(""));
    expect(b.metadata.task_description).toEqual({ issue: "", crash_report: null, bug_description: "spaced" });
    expect(Object.keys(b.metadata)).toEqual([
      "id", "project", "repository", "language", "source", "task_description", "scripts", "files", "sanitizer", "type",
      "binary", "trigger_commit", "patch_commit", "reference", "originality",
    ]);
    // Rendering is idempotent through the model.
    expect(renderManifest(await parseManifest(out.stdout, "x"))).toBe(out.stdout);
  });

  test("writes <DIR>/manifest.json by default, or -o FILE", async () => {
    expect(await runManifest({ dir: root })).toEqual({ stdout: `wrote ${root}/manifest.json with 2 tasks\n`, stderr: "", exitCode: 0 });
    const other = join(tmp.path, "other.json");
    expect((await runManifest({ dir: root, output: other })).stdout).toBe(`wrote ${other} with 2 tasks\n`);
    expect(readFileSync(other, "utf8")).toBe(readFileSync(join(root, "manifest.json"), "utf8"));
  });

  test("--check: up to date, out of date with a difflib diff, missing target", async () => {
    await runManifest({ dir: root });
    const target = join(root, "manifest.json");
    expect(await runManifest({ dir: root, check: true })).toEqual({ stdout: `${target} is up to date\n`, stderr: "", exitCode: 0 });
    writeFileSync(target, readFileSync(target, "utf8").replace('"demo-v1"', '"demo-v0"'));
    const stale = await runManifest({ dir: root, check: true });
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toBe(
      [`--- ${target}`, "+++ generated", "@@ -1,6 +1,6 @@", " {", '   "dataset": "demo",', '-  "version": "demo-v0",', '+  "version": "demo-v1",', '   "tasks": [', "     {", '       "id": "A-task",', `${target} is out of date; run \`ssebench dataset manifest\` to update it`, ""].join("\n"),
    );
    writeFileSync(target, "");
    const lines = (await runManifest({ dir: root, check: true })).stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(41);
    expect(lines[0]).toBe(`--- ${target}`);
  });

  test("--check reads the file with universal newlines: a CRLF (or CR) copy is up to date", async () => {
    await runManifest({ dir: root });
    const text = readFileSync(join(root, "manifest.json"), "utf8");
    for (const [name, eol] of [["crlf.json", "\r\n"], ["cr.json", "\r"]] as const) {
      const target = join(tmp.path, name);
      writeFileSync(target, text.replaceAll("\n", eol));
      expect(await runManifest({ dir: root, output: target, check: true })).toEqual({ stdout: `${target} is up to date\n`, stderr: "", exitCode: 0 });
    }
  });

  test("--check -o - is a usage error (exit 2) before anything else", async () => {
    const error = await runManifest({ dir: join(tmp.path, "absent"), check: true, output: "-" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: "--check needs an output file", exitCode: 2 });
  });

  test("--generated-from is recorded, and --check reuses the recorded commit", async () => {
    const target = join(tmp.path, "gen.json");
    await runManifest({ dir: root, output: target, generatedFrom: "abc123" });
    const text = readFileSync(target, "utf8");
    expect(Object.keys(JSON.parse(text))).toEqual(["dataset", "version", "generated_from", "tasks"]);
    expect((await runManifest({ dir: root, output: target, check: true })).exitCode).toBe(0);
    expect((await runManifest({ dir: root, output: target, check: true, generatedFrom: "other" })).exitCode).toBe(1);
  });

  test("an invalid dataset writes nothing", async () => {
    const bad = writeDataset(join(tmp.path, "bad"), ["t"]);
    writeTask(bad, "t", { Dockerfile: null });
    expect(await runManifest({ dir: bad })).toEqual({
      stdout: "",
      stderr: `t:\n  Dockerfile: missing\n${bad}: not a valid dataset, so no manifest was generated\n`,
      exitCode: 1,
    });
    expect(existsSync(join(bad, "manifest.json"))).toBe(false);
  });

  test("a dataset folder whose name is not a dataset name is an error, not a crash", async () => {
    const odd = writeDataset(join(tmp.path, "my data"), ["t"]);
    const out = await runManifest({ dir: odd, output: "-" });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      `${odd}: the folder name 'my data' is not a valid dataset name: it should match pattern '^[A-Za-z0-9]+(?:(?:[._]|__|-+)[A-Za-z0-9]+)*$'\n${odd}: not a valid dataset, so no manifest was generated\n`,
    );
  });
});

describe("file hashing", () => {
  test("a file over 8 MiB is streamed and hashes like the whole", async () => {
    const root = writeDataset(join(tmp.path, "big"), ["t"]);
    const big = new Uint8Array(9 * 1024 * 1024 + 17).map((_, i) => (i * 31) & 0xff);
    writeTask(root, "t", { "src/big.bin": big });
    const m = JSON.parse((await runManifest({ dir: root, output: "-" })).stdout);
    expect(m.tasks[0].files["src/big.bin"]).toBe(sha(big));
  });
});
