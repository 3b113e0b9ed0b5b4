/** The dataset commands as users run them: the compiled binary (run `bun run build` first). */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { writeDataset } from "./fixture.ts";

// Each run starts a process that loads arktype; on a shared 2-vCPU runner that can take seconds.
setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-cli-");
afterAll(tmp.cleanup);

describe("ssebench dataset", () => {
  test("--help lists the four commands", async () => {
    const out = await ssebench(["dataset", "--help"]);
    expect(out.exitCode).toBe(0);
    for (const name of ["validate", "manifest", "schema", "lock"]) expect(out.stdout).toContain(name);
  });

  test("validate and manifest round trip on a fixture dataset", async () => {
    const root = writeDataset(join(tmp.path, "ds"), ["one", "two"]);
    expect(await ssebench(["dataset", "validate", root])).toEqual({ exitCode: 0, stdout: `${root}: 2 tasks are valid\n`, stderr: "" });
    expect((await ssebench(["dataset", "manifest", root])).stdout).toBe(`wrote ${root}/manifest.json with 2 tasks\n`);
    const printed = await ssebench(["dataset", "manifest", root, "-o", "-"]);
    expect(printed.stdout).toBe(readFileSync(join(root, "manifest.json"), "utf8"));
    expect((await ssebench(["dataset", "manifest", root, "--check"])).exitCode).toBe(0);
    expect((await ssebench(["dataset", "lock", root])).stdout).toBe(`wrote ${root}/images.lock.json with 0 images\n`);
    expect((await ssebench(["dataset", "lock", root, "--check"])).exitCode).toBe(0);
  });

  test("--check -o - exits 2", async () => {
    expect(await ssebench(["dataset", "manifest", "--check", "-o", "-"])).toEqual({ exitCode: 2, stdout: "", stderr: "--check needs an output file\n" });
  });

  test("schema writes ten files; --check is silent when current and names stale files", async () => {
    const dir = join(tmp.path, "schema");
    const out = await ssebench(["dataset", "schema", "-o", dir]);
    expect(out.stdout.trim().split("\n")).toEqual(
      ["task", "dataset", "manifest", "images-lock", "model", "model-script", "upstream-sources", "verified", "item-dataset", "run-input"].map((n) => `wrote ${dir}/${n}.schema.json`),
    );
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check"])).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    const other = join(tmp.path, "partial");
    await ssebench(["dataset", "schema", "-o", other]);
    await Bun.write(join(other, "dataset.schema.json"), "{}\n");
    (await import("node:fs")).rmSync(join(other, "images-lock.schema.json"));
    // A directory where a schema belongs is stale too, not a crash.
    (await import("node:fs")).rmSync(join(other, "task.schema.json"));
    (await import("node:fs")).mkdirSync(join(other, "task.schema.json"));
    expect(await ssebench(["dataset", "schema", "-o", other, "--check"])).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: `${other}: out of date: task.schema.json, dataset.schema.json, images-lock.schema.json; run \`ssebench dataset schema\` to update\n`,
    });
  });

  test("schema --check reads with universal newlines: CRLF copies are current", async () => {
    const dir = join(tmp.path, "schema-crlf");
    await ssebench(["dataset", "schema", "-o", dir]);
    const fs = await import("node:fs");
    for (const name of fs.readdirSync(dir)) fs.writeFileSync(join(dir, name), fs.readFileSync(join(dir, name), "utf8").replaceAll("\n", "\r\n"));
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check"])).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  test("schema --check --ignore-descriptions compares constraints only", async () => {
    const fs = await import("node:fs");
    const dir = join(tmp.path, "schema-prose");
    await ssebench(["dataset", "schema", "-o", dir]);
    const edit = (file: string, change: (text: string) => string) => fs.writeFileSync(join(dir, file), change(fs.readFileSync(join(dir, file), "utf8")));
    edit("task.schema.json", (t) => t.replace('"title": "SSEBench task config"', '"title": "Task"').replace(/"description": "[^"]*"/g, '"description": "other words"'));
    fs.rmSync(join(dir, "run-input.schema.json"));
    const stale = `${dir}: out of date: task.schema.json, run-input.schema.json; run \`ssebench dataset schema\` to update\n`;
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check"])).toEqual({ exitCode: 1, stdout: "", stderr: stale });
    // ssebench's own schemas may be absent (a folder of the reference's four); the four may not.
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check", "--ignore-descriptions"])).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    edit("task.schema.json", (t) => t.replace('"maxLength": 128', '"maxLength": 127'));
    fs.rmSync(join(dir, "images-lock.schema.json"));
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check", "--ignore-descriptions"])).toEqual({
      exitCode: 1,
      stdout: "",
      stderr: `${dir}: out of date: task.schema.json, images-lock.schema.json; run \`ssebench dataset schema\` to update\n`,
    });
    expect(await ssebench(["dataset", "schema", "-o", dir, "--ignore-descriptions"])).toMatchObject({ exitCode: 2, stderr: "--ignore-descriptions only goes with --check\n" });
  });

  const pilotSchemas = join(repoRoot, "../shared/conformance/pilot/schema");
  test.skipIf(!existsSync(join(pilotSchemas, "task.schema.json")))("the reference's own schemas pass --ignore-descriptions (not --check)", async () => {
    const fs = await import("node:fs");
    const dir = join(tmp.path, "reference-schemas");
    fs.cpSync(pilotSchemas, dir, { recursive: true });
    expect((await ssebench(["dataset", "schema", "-o", dir, "--check"])).exitCode).toBe(1);
    // One constraint differs on purpose: ssebench's tasks may also be in Python (the reference's
    // languages are c, go and rust). With that one extension the constraints are the reference's.
    const stale = `${dir}: out of date: task.schema.json, manifest.schema.json; run \`ssebench dataset schema\` to update\n`;
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check", "--ignore-descriptions"])).toEqual({ exitCode: 1, stdout: "", stderr: stale });
    for (const file of ["task.schema.json", "manifest.schema.json"]) {
      const path = join(dir, file);
      const text = fs.readFileSync(path, "utf8");
      const extended = text.replace(/("enum":\s*\[\s*"c",\s*"go",\s*"rust")(\s*\])/g, '$1, "python"$2');
      expect(extended).not.toBe(text);
      fs.writeFileSync(path, extended);
    }
    expect(await ssebench(["dataset", "schema", "-o", dir, "--check", "--ignore-descriptions"])).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  test("the committed schemas are current", async () => {
    expect(await ssebench(["dataset", "schema", "--check"])).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  test("DIR defaults to the checkout's datasets/demo, also from a sub-folder", async () => {
    const out = await ssebench(["dataset", "validate"]);
    expect(out.stdout).toMatch(/^datasets\/demo: \d+ tasks are valid\n$/);
    const nested = await ssebench(["dataset", "validate"], { cwd: join(repoRoot, "src/dataset") });
    // Not below the working directory: shown absolute.
    expect(nested.stdout).toBe(out.stdout.replace(/^datasets/, join(repoRoot, "datasets")));
  });

  test.skipIf(!existsSync(join(repoRoot, "datasets/demo/manifest.json")))("the committed demo manifest and lock are current", async () => {
    expect((await ssebench(["dataset", "manifest", "--check"])).exitCode).toBe(0);
    expect((await ssebench(["dataset", "lock", "--check"])).exitCode).toBe(0);
  });
});
