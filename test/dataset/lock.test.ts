import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLock } from "../../src/dataset/lock-command.ts";
import { runManifest } from "../../src/dataset/manifest-command.ts";
import { filesDigest } from "../../src/dataset/files-digest.ts";
import { renderPublicationRecord } from "../../src/formats/manifest/images-lock.ts";
import { tempDir } from "../helpers/cli.ts";
import { writeDataset, writeTask } from "./fixture.ts";

const tmp = tempDir("ssebench-lock-");
afterAll(tmp.cleanup);

const REV = "f".repeat(40);
const digestOf = (c: string) => `sha256:${c.repeat(64)}`;

async function currentFiles(root: string, id: string): Promise<Record<string, string>> {
  const m = JSON.parse((await runManifest({ dir: root, output: "-" })).stdout);
  return m.tasks.find((t: { id: string }) => t.id === id).files;
}

function record(dir: string, task: string, files_sha256: string, extra: Partial<Record<string, string>> = {}) {
  mkdirSync(dir, { recursive: true });
  const r = { task, dataset: "ds", version: "v1", image: `case/ds/${task}`, tags: ["v1-fffffff", "v1"], digest: digestOf("a"), files_sha256, revision: REV, ...extra };
  writeFileSync(join(dir, `${task}.json`), renderPublicationRecord(r as never));
}

describe("dataset lock", async () => {
  const root = writeDataset(join(tmp.path, "ds"), ["a", "b"], "v1");
  const lockPath = join(root, "images.lock.json");
  const records = join(tmp.path, "published");

  test("a lock with no records is empty; --check finds it consistent", async () => {
    expect(await runLock({ dir: root })).toEqual({ stdout: `wrote ${lockPath} with 0 images\n`, stderr: "", exitCode: 0 });
    expect(readFileSync(lockPath, "utf8")).toBe('{\n  "dataset": "ds",\n  "version": "v1",\n  "images": {}\n}\n');
    expect(await runLock({ dir: root, check: true })).toEqual({ stdout: `${lockPath} is consistent with the dataset\n`, stderr: "", exitCode: 0 });
  });

  test("records are merged, sorted, and re-running reproduces the file", async () => {
    record(records, "b", filesDigest(await currentFiles(root, "b")));
    record(records, "a", filesDigest(await currentFiles(root, "a")));
    expect((await runLock({ dir: root, records })).stdout).toBe(`wrote ${lockPath} with 2 images\n`);
    const text = readFileSync(lockPath, "utf8");
    expect(Object.keys(JSON.parse(text).images)).toEqual(["a", "b"]);
    await runLock({ dir: root });
    expect(readFileSync(lockPath, "utf8")).toBe(text);
  });

  test("an entry whose task files changed is dropped, but a lagging lock passes --check", async () => {
    writeTask(root, "a", { "sse/pocs/poc.bin": "changed" });
    expect((await runLock({ dir: root, check: true })).exitCode).toBe(0);
    const out = join(tmp.path, "out.json");
    expect((await runLock({ dir: root, output: out })).stdout).toBe(`wrote ${out} with 1 images\n`);
    expect(Object.keys(JSON.parse(readFileSync(out, "utf8")).images)).toEqual(["b"]);
  });

  test("a record for other files or another version is refused", async () => {
    const stale = join(tmp.path, "stale");
    record(stale, "a", "0".repeat(64));
    await expect(runLock({ dir: root, records: stale })).rejects.toThrow(`The record of a is for other task files than the ones in ${root}`);
    const other = join(tmp.path, "other-version");
    record(other, "a", filesDigest(await currentFiles(root, "a")), { version: "v0" });
    await expect(runLock({ dir: root, records: other })).rejects.toThrow("The record of a is for ds v0, not ds v1");
    const broken = join(tmp.path, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "x.json"), '{"task": "a"}');
    await expect(runLock({ dir: root, records: broken })).rejects.toThrow(`${join(broken, "x.json")} is not a valid publication record: dataset: Field required`);
  });

  test("--check problems: missing, invalid, other version, unknown task", async () => {
    const checked = writeDataset(join(tmp.path, "checked"), ["a"], "v1");
    const path = join(checked, "images.lock.json");
    expect(await runLock({ dir: checked, check: true })).toEqual({ stdout: "", stderr: `${path} is missing; run \`ssebench dataset lock\`\n`, exitCode: 1 });
    writeFileSync(path, '{"dataset": "checked", "version": "v1"}');
    expect((await runLock({ dir: checked, check: true })).stderr).toBe(`${path} is not a valid images lock: images: Field required\n`);
    writeFileSync(path, '{"dataset": "checked", "version": "v0", "images": {}}');
    expect((await runLock({ dir: checked, check: true })).stderr).toBe(
      `${path} is for checked v0, not checked v1; run \`ssebench dataset lock\`\n`,
    );
    const entry = { digest: digestOf("b"), files_sha256: "0".repeat(64), revision: REV };
    writeFileSync(path, JSON.stringify({ dataset: "checked", version: "v1", images: { a: entry, gone: entry } }));
    expect((await runLock({ dir: checked, check: true })).stderr).toBe(`${path} pins gone, which is not a task of the dataset\n`);
    // Building from it keeps nothing: one entry is stale, the other's task is gone.
    expect((await runLock({ dir: checked })).stdout).toBe(`wrote ${path} with 0 images\n`);
  });

  test("--check on a lock for another version also lists each pinned id that is not a task", async () => {
    const other = writeDataset(join(tmp.path, "otherversion"), ["a"], "v1");
    const path = join(other, "images.lock.json");
    const entry = { digest: digestOf("b"), files_sha256: "0".repeat(64), revision: REV };
    writeFileSync(path, JSON.stringify({ dataset: "otherversion", version: "v0", images: { gone: entry, a: entry, old: entry } }));
    expect(await runLock({ dir: other, check: true })).toEqual({
      stdout: "",
      stderr:
        `${path} is for otherversion v0, not otherversion v1; run \`ssebench dataset lock\`\n` +
        `${path} pins gone, which is not a task of the dataset\n${path} pins old, which is not a task of the dataset\n`,
      exitCode: 1,
    });
  });

  test("an existing lock that is invalid stops the build", async () => {
    const bad = writeDataset(join(tmp.path, "badlock"), ["a"], "v1");
    writeFileSync(join(bad, "images.lock.json"), "not json");
    await expect(runLock({ dir: bad })).rejects.toThrow(`${join(bad, "images.lock.json")} is not a valid images lock: JSON Parse error`);
  });
});
