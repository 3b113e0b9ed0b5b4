import { describe, expect, test } from "bun:test";
import { parseImagesLock, parsePublicationRecord, renderImagesLock, renderPublicationRecord } from "../../src/formats/manifest/images-lock.ts";
import { formatLoc } from "../../src/formats/schema/model-errors.ts";
import { parseManifest, renderManifest } from "../../src/formats/manifest/manifest.ts";
import { modelStrip, pythonStrip, stripStrings } from "../../src/formats/compat/strip.ts";

const metadata = {
  id: "t",
  project: "p",
  repository: "https://example.org/p",
  language: "c",
  source: "/src",
  task_description: { issue: "x" },
  scripts: {},
  files: {},
};
const task = {
  id: "t",
  language: "c",
  project: "p",
  repository: "https://example.org/p",
  base: "base-generic-c:1.0.0",
  image: "case/ds/t",
  arch: ["amd64"],
  checks: [],
  metadata,
};
const hash = "a".repeat(64);

describe("parseManifest", () => {
  test("fills every optional key with null, in model order, and renders idempotently", async () => {
    const m = await parseManifest(JSON.stringify({ dataset: "ds", version: "v1", tasks: [task] }), "m.json");
    expect(m.generated_from).toBeNull();
    expect(Object.keys(m.tasks[0]?.metadata ?? {})).toHaveLength(15);
    expect(m.tasks[0]?.files).toBeNull();
    const text = renderManifest(m);
    expect(Object.keys(JSON.parse(text))).toEqual(["dataset", "version", "tasks"]);
    expect(renderManifest(await parseManifest(text, "again"))).toBe(text);
  });

  test("one line per failure: JSON syntax, model problems, at most three listed", async () => {
    await expect(parseManifest("{", "m.json")).rejects.toThrow(/^m\.json is not a valid dataset manifest: JSON Parse error/);
    await expect(parseManifest('{"dataset":"ds","version":"v1","tasks":[{"id":"t"}]}', "m.json")).rejects.toThrow(
      "m.json is not a valid dataset manifest: tasks[0].language: Field required; tasks[0].project: Field required; tasks[0].repository: Field required (and 5 more)",
    );
    await expect(parseManifest(JSON.stringify({ dataset: "d s", version: "v1", tasks: [{ ...task, arch: [], extra: 1 }] }), "m")).rejects.toThrow(
      "m is not a valid dataset manifest: dataset: String should match pattern '^[A-Za-z0-9]+(?:(?:[._]|__|-+)[A-Za-z0-9]+)*$'; tasks[0].arch: List should have at least 1 item after validation, not 0; tasks[0].extra: unknown key",
    );
  });
});

describe("parseManifest: stripping as pydantic's str_strip_whitespace", () => {
  test("str values and dict keys are stripped; enumerated values are not", async () => {
    const hash = "a".repeat(64);
    const m = await parseManifest(JSON.stringify({ dataset: "ds", version: "v1", tasks: [{ ...task, project: " p ", files: { " Dockerfile ": ` ${hash} ` } }] }), "m");
    expect(m.tasks[0]?.project).toBe("p");
    expect(m.tasks[0]?.files).toEqual({ Dockerfile: hash });
    const keyOnly = await parseManifest(JSON.stringify({ dataset: "ds", version: "v1", tasks: [{ ...task, files: { "sse/x\u00a0": hash } }] }), "m");
    expect(keyOnly.tasks[0]?.files).toEqual({ "sse/x": hash });
    await expect(parseManifest(JSON.stringify({ dataset: "ds", version: "v1", tasks: [{ ...task, arch: [" amd64 "] }] }), "m")).rejects.toMatchObject({
      message: "m is not a valid dataset manifest: tasks[0].arch[0]: Input should be 'amd64' or 'arm64'",
    });
  });
});

describe("parseManifest: task ids", () => {
  test('a task id listed twice is the reference\'s `duplicate task id "<id>"`, once per repeat', async () => {
    const tasks = [task, { ...task, id: "u", metadata: { ...metadata, id: "u" } }, task, task];
    await expect(parseManifest(JSON.stringify({ dataset: "ds", version: "v1", tasks }), "m.json")).rejects.toMatchObject({
      message: 'm.json is not a valid dataset manifest: duplicate task id "t"; duplicate task id "t"',
    });
  });
});

describe("images lock and publication records", () => {
  const entry = { digest: `sha256:${hash}`, files_sha256: hash, revision: "b".repeat(40) };

  test("lock entries come back sorted by id; empty images render as {}", async () => {
    const lock = await parseImagesLock(JSON.stringify({ dataset: "ds", version: "v1", images: { b: entry, B: entry, a: entry } }), "l");
    expect(Object.keys(JSON.parse(renderImagesLock(lock)).images)).toEqual(["B", "a", "b"]);
    expect(renderImagesLock({ dataset: "ds", version: "v1", images: {} })).toBe('{\n  "dataset": "ds",\n  "version": "v1",\n  "images": {}\n}\n');
  });

  test("lock problems name the entry", async () => {
    await expect(parseImagesLock(JSON.stringify({ dataset: "ds", version: "v1", images: { a: { ...entry, digest: "sha256:x" } } }), "l")).rejects.toThrow(
      "l is not a valid images lock: images.a.digest: String should match pattern '^sha256:[0-9a-f]{64}$'",
    );
  });

  test("a publication record round-trips in field order", async () => {
    const record = { task: "t", dataset: "ds", version: "v1", image: "case/ds/t", tags: ["v1-bbbbbbb", "v1"], digest: entry.digest, files_sha256: hash, revision: entry.revision };
    const text = renderPublicationRecord(record);
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(record));
    expect(await parsePublicationRecord(text, "r")).toEqual(record);
  });
});

describe("helpers", () => {
  test("pydantic locations", () => {
    expect(formatLoc(["files", "poc", 0])).toBe("files.poc[0]");
    expect(formatLoc(["task_description", "crash_report", 1])).toBe("task_description.crash_report[1]");
    expect(formatLoc([])).toBe("");
  });

  test("Python's str.strip whitespace set", () => {
    expect(pythonStrip("\u001c x \u0085")).toBe("x");
    expect(pythonStrip("\ufeffx")).toBe("\ufeffx");
    // pydantic strips Unicode White_Space (Rust's trim), which leaves \x1c-\x1f (and \ufeff) alone.
    expect(modelStrip("\u001c x \u0085")).toBe("\u001c x");
    expect(modelStrip("\u2028\u00a0x\u3000\t")).toBe("x");
    expect(stripStrings({ a: [" b "], __proto__x: " c " })).toEqual({ a: ["b"], __proto__x: "c" });
    const schema = { $defs: { L: { enum: ["go"], type: "string" } }, properties: { l: { $ref: "#/$defs/L" }, o: { anyOf: [{ enum: ["x"] }, { type: "null" }] }, a: { type: "array", items: { enum: ["y"] } }, s: { type: "string" } } };
    expect(stripStrings({ l: " go ", o: " x ", a: [" y "], s: " s ", other: " z " }, schema)).toEqual({ l: " go ", o: " x ", a: [" y "], s: "s", other: "z" });
  });
});
