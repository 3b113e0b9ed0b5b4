import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runValidate } from "../../src/dataset/validate-command.ts";
import { tempDir } from "../helpers/cli.ts";
import { type TaskFiles, goodConfig, writeDataset, writeTask } from "./fixture.ts";

const tmp = tempDir("ssebench-validate-");
afterAll(tmp.cleanup);
let n = 0;

/** A fresh dataset `<tmp>/dsN` with task `t` altered by `overrides`; returns its task errors. */
function taskErrors(overrides: TaskFiles, id = "t"): string[] {
  const root = writeDataset(join(tmp.path, `ds${n++}`), []);
  writeTask(root, id, overrides);
  const out = runValidate(root);
  return out.stderr
    .split("\n")
    .filter((l) => l.startsWith("  "))
    .map((l) => l.slice(2));
}

const config = (edit: (text: string) => string) => ({ "sse/config.yaml": edit(goodConfig("t")) });

describe("dataset validate: output and exit codes (§1.4)", () => {
  test("a valid dataset prints `<DIR>: N tasks are valid`", () => {
    const root = writeDataset(join(tmp.path, "valid"), ["a", "b"]);
    expect(runValidate(root)).toEqual({ stdout: `${root}: 2 tasks are valid\n`, stderr: "", exitCode: 0 });
  });

  test("an invalid task is listed under its id, then the count line", () => {
    const root = writeDataset(join(tmp.path, "mixed"), ["bad", "good"]);
    writeTask(root, "bad", { "sse/config.yaml": goodConfig("other") });
    const out = runValidate(root);
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(`bad:\n  sse/config.yaml: id: 'other' must equal the folder name\n${root}: 1 of 2 tasks are invalid\n`);
  });

  test("dataset-level errors come first and count no task", () => {
    const root = writeDataset(join(tmp.path, "noversion"), ["a"]);
    writeFileSync(join(root, "dataset.yaml"), "version: Pilot\nname: x\n");
    const out = runValidate(root);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      `${root}: dataset.yaml: version: String should match pattern '^[a-z0-9]+(?:[._-][a-z0-9]+)*$'\n` +
        `${root}: dataset.yaml: name: unknown key\n${root}: 0 of 1 tasks are invalid\n`,
    );
  });

  test("missing DIR, empty DIR, missing and non-mapping dataset.yaml", () => {
    const missing = join(tmp.path, "nope");
    expect(runValidate(missing).stderr).toBe(`${missing}: does not exist\n`);
    const file = join(tmp.path, "notes.txt");
    writeFileSync(file, "a: b\n");
    expect(runValidate(file)).toEqual({ stdout: "", stderr: `${file}: not a dataset; give a dataset folder (one with dataset.yaml and a folder per task) or an item dataset FILE.yaml (kind: Dataset)\n`, exitCode: 1 });
    const empty = join(tmp.path, "empty");
    mkdirSync(empty);
    expect(runValidate(empty).stderr).toBe(`${empty}: dataset.yaml: missing\n${empty}: no task folders\n${empty}: 0 of 0 tasks are invalid\n`);
    writeFileSync(join(empty, "dataset.yaml"), "- pilot-v1\n");
    expect(runValidate(empty).stderr).toStartWith(`${empty}: dataset.yaml: Input should be a valid dictionary or instance of DatasetInfo\n`);
  });

  test("task folders: directories only, dot-folders skipped, code-point order, case collisions", () => {
    const root = writeDataset(join(tmp.path, "order"), ["ammonia-1", "RUSTSEC-1", "Ammonia-1"]);
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, "README.md"), "x");
    const out = runValidate(root);
    expect(out.stderr.split("\n")[0]).toBe(`${root}: tasks Ammonia-1 and ammonia-1 would share the image name case/.../ammonia-1`);
    expect(out.stderr).toContain(": 0 of 3 tasks are invalid");
  });
});

describe("dataset validate: task config (§1.2.1–2)", () => {
  test("spec strings", () => {
    expect(taskErrors(config((t) => t.replace(/^repository:.*\n/m, "")))).toEqual(["sse/config.yaml: repository: Field required"]);
    expect(taskErrors(config((t) => `${t}notes: hi\n`))).toEqual(["sse/config.yaml: notes: unknown key"]);
    expect(taskErrors(config((t) => `${t}originality: Self Craft\n`))).toEqual([
      "sse/config.yaml: originality: Input should be 'public' or 'crafted'",
    ]);
  });

  test("model order, then unknown keys; locations with [i]", () => {
    const errors = taskErrors(
      config((t) =>
        t
          .replace("language: c", "language: java")
          .replace("id: t", "id: 12345")
          .replace("    - pocs/poc.bin", "    - pocs/poc.bin\n    - /abs.bin")
          .replace("  build: build.sh", "  build: build.sh\n  lint: lint.sh")
          .concat("extra: 1\n"),
      ),
    );
    expect(errors).toEqual([
      "sse/config.yaml: id: Input should be a valid string",
      "sse/config.yaml: language: Input should be 'c', 'go', 'rust' or 'python'",
      "sse/config.yaml: scripts.lint: unknown key",
      "sse/config.yaml: files.poc[1]: String should match pattern '^[^/]'",
      "sse/config.yaml: extra: unknown key",
    ]);
  });

  test("YAML 1.1 scalars as PyYAML reads them", () => {
    // `none` is a string, `yes` a boolean, `key:` null.
    expect(taskErrors(config((t) => t.replace('issue: "It crashes on long input."', "issue:\n  bug_description: none")))).toEqual([]);
    expect(taskErrors(config((t) => t.replace("project: demo", "project: yes")))).toEqual(["sse/config.yaml: project: Input should be a valid string"]);
    expect(taskErrors(config((t) => t.replace("  build: build.sh", "  build:")))).toEqual([]);
    // PyYAML's resolvers are narrower than YAML 1.1's: these plain scalars stay strings.
    expect(taskErrors(config((t) => `${t}sanitizer: 1e5\ntype: 09\nbinary: 2001-1-1\n`))).toEqual([]);
    expect(taskErrors(config((t) => `${t}[notes]: x\n`))).toEqual(["sse/config.yaml: cannot read: found unhashable key at line 17, column 1"]);
  });

  test("a key that is not a string is pydantic's invalid_key, not an unknown key", () => {
    expect(taskErrors(config((t) => `${t}1: one\nnotes: x\n`))).toEqual([
      "sse/config.yaml: [1]: Keys should be strings",
      "sse/config.yaml: notes: unknown key",
    ]);
    // Unknown keys in the order written, integer-like ones too (JS objects would list them first).
    expect(taskErrors(config((t) => `${t}notes: x\n"2": two\n1: one\n`))).toEqual([
      "sse/config.yaml: notes: unknown key",
      "sse/config.yaml: 2: unknown key",
      "sse/config.yaml: [1]: Keys should be strings",
    ]);
    // pydantic locates a bool key as an int, None and floats by their str(), a date by its repr().
    expect(taskErrors(config((t) => t.replace("  build: build.sh", "  build: build.sh\n  yes: x\n  ~: y\n  1.5: z\n  2001-01-02: d")))).toEqual([
      "sse/config.yaml: scripts[1]: Keys should be strings",
      "sse/config.yaml: scripts.None: Keys should be strings",
      "sse/config.yaml: scripts.1.5: Keys should be strings",
      "sse/config.yaml: scripts.datetime.date(2001, 1, 2): Keys should be strings",
    ]);
  });

  test("a tag safe_load cannot construct is a read error (PyYAML's ConstructorError)", () => {
    expect(taskErrors(config((t) => t.replace("language: c", "language: !custom c")))).toEqual([
      "sse/config.yaml: cannot read: could not determine a constructor for the tag '!custom' at line 4, column 11",
    ]);
    expect(taskErrors(config((t) => `${t}binary: !!python/object/apply:os.system [id]\n`))).toEqual([
      "sse/config.yaml: cannot read: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object/apply:os.system' at line 17, column 9",
    ]);
    expect(taskErrors(config((t) => t.replace("project: demo", "project: !!str demo")))).toEqual([]);
  });

  test("strings are stripped before the patterns; blank description is a model error", () => {
    expect(taskErrors(config((t) => t.replace("source: /src", 'source: "  /src  "')))).toEqual([]);
    expect(taskErrors(config((t) => t.replace('"It crashes on long input."', '"   "')))).toEqual([
      "sse/config.yaml: task_description: Value error, at least one of issue, crash_report and bug_description must be set",
    ]);
  });

  test("stripping is pydantic's (Unicode White_Space), not Python's str.strip()", () => {
    expect(taskErrors(config((t) => t.replace("project: demo", 'project: "\\x1c"')))).toEqual([]);
    expect(taskErrors(config((t) => t.replace("project: demo", 'project: "\\x85\\u2028"')))).toEqual(["sse/config.yaml: project: String should match pattern '\\S'"]);
  });

  test("enumerated fields are not stripped (pydantic strips str fields, not Literals)", () => {
    expect(taskErrors(config((t) => t.replace("language: c", "language: ' go '")))).toEqual([
      "sse/config.yaml: language: Input should be 'c', 'go', 'rust' or 'python'",
    ]);
    expect(taskErrors(config((t) => `${t}originality: ' public '\n`))).toEqual([
      "sse/config.yaml: originality: Input should be 'public' or 'crafted'",
    ]);
    expect(taskErrors(config((t) => `${t}originality: public\nreference: [" https://example.org/a "]\n`))).toEqual([]);
  });

  test("length and list messages", () => {
    const long = "a".repeat(129);
    expect(taskErrors(config((t) => t.replace("id: t", `id: ${long}`)))).toEqual(["sse/config.yaml: id: String should have at most 128 characters"]);
    expect(taskErrors(config((t) => t.replace("    - pocs/poc.bin", '    - ""')))).toEqual([
      "sse/config.yaml: files.poc[0]: String should have at least 1 character",
    ]);
    expect(taskErrors(config((t) => `${t}reference: https://example.org\n`))).toEqual(["sse/config.yaml: reference: Input should be a valid list"]);
  });

  test("missing, unreadable and non-mapping configs", () => {
    expect(taskErrors({ "sse/config.yaml": null })).toEqual(["sse/config.yaml: missing", "Dockerfile: must copy sse/config.yaml to /ssebench/config.yaml"]);
    expect(taskErrors({ "sse/config.yaml": "- a\n- b\n" })).toEqual(["sse/config.yaml: Input should be a valid dictionary or instance of TaskMetadata"]);
    expect(taskErrors({ "sse/config.yaml": "just text\n" })).toEqual(["sse/config.yaml: Input should be a valid dictionary or instance of TaskMetadata"]);
    const [syntax] = taskErrors({ "sse/config.yaml": "id: t\nscripts: [a,\n" });
    expect(syntax).toMatch(/^sse\/config\.yaml: cannot read: .* at line \d+, column \d+$/);
  });
});

describe("dataset validate: Dockerfile (§1.2.3–7)", () => {
  const docker = (text: string) => ({ Dockerfile: text });
  const head = "ARG SSEBENCH_REGISTRY=r\n";
  const body = "COPY src /src\nCOPY sse/ /ssebench/\n";

  test("missing or unparsable Dockerfile stops the task's checks", () => {
    expect(taskErrors({ Dockerfile: null })).toEqual(["Dockerfile: missing"]);
    expect(taskErrors(docker("# nothing\n"))).toEqual(["Dockerfile: no FROM instruction"]);
    expect(taskErrors(docker("FROM\n"))).toEqual(["Dockerfile: cannot parse 'FROM'"]);
    expect(taskErrors(docker(`${head}FROM \${SSEBENCH_REGISTRY}/b:1\nCOPY onlyone\n`))).toEqual(["Dockerfile: cannot parse COPY 'onlyone'"]);
  });

  test("base image rules, only the first failing", () => {
    expect(taskErrors(docker(`FROM base-generic-c:1.0.0\n${body}`))).toEqual([
      "Dockerfile: the last FROM must be ${SSEBENCH_REGISTRY}/<base image>, not base-generic-c:1.0.0",
    ]);
    expect(taskErrors(docker(`FROM \${SSEBENCH_REGISTRY}/b:1\n${body}`))).toEqual([
      "Dockerfile: FROM uses SSEBENCH_REGISTRY, but no ARG SSEBENCH_REGISTRY precedes it",
    ]);
    for (const ref of ["base-generic-c:latest", "base-generic-c", "base-generic-c:${TAG}"]) {
      expect(taskErrors(docker(`${head}FROM \${SSEBENCH_REGISTRY}/${ref}\n${body}`))).toEqual([
        `Dockerfile: the base image must have a version tag or a digest, not ${ref}`,
      ]);
    }
    const digest = `sha256:${"a".repeat(64)}`;
    for (const from of [`ARG TAG=1.0.0\nFROM \${SSEBENCH_REGISTRY}/b:\${TAG}`, `FROM \${SSEBENCH_REGISTRY}/b@${digest}`, `FROM $SSEBENCH_REGISTRY/b:1.0.0@${digest}`]) {
      expect(taskErrors(docker(`${head}${from}\n${body}`))).toEqual([]);
    }
  });

  test("copy sources must exist and config.yaml must land at /ssebench/config.yaml", () => {
    expect(taskErrors(docker(`${head}FROM \${SSEBENCH_REGISTRY}/b:1\nCOPY nothere /x\n${body}`))).toEqual(["Dockerfile: copies nothere, which does not exist"]);
    expect(taskErrors(docker(`${head}FROM \${SSEBENCH_REGISTRY}/b:1\nCOPY src /src\nCOPY sse /ssebench/sse\n`))).toContain(
      "Dockerfile: must copy sse/config.yaml to /ssebench/config.yaml",
    );
  });

  test("config paths must be put under /ssebench by the Dockerfile", () => {
    expect(taskErrors({ ...config((t) => t.replace("  poc:", "  intent_test: diffs/intent.diff\n  poc:")) })).toEqual([
      "sse/config.yaml: files.intent_test: the Dockerfile puts no file of the task folder at /ssebench/diffs/intent.diff",
    ]);
    expect(taskErrors(config((t) => t.replace("    - pocs/poc.bin", "    - pocs/poc.bin\n    - x.bin")))).toEqual([
      "sse/config.yaml: files.poc[1]: the Dockerfile puts no file of the task folder at /ssebench/x.bin",
    ]);
    expect(taskErrors(config((t) => t.replace("build: build.sh", "build: ../src/demo/build.sh")))).toEqual([
      "sse/config.yaml: scripts.build: ../src/demo/build.sh is outside /ssebench",
    ]);
  });

  test("a later COPY of a single file wins; stage inheritance keeps copies", () => {
    const dockerfile = `${head}FROM \${SSEBENCH_REGISTRY}/b:1 AS base\nCOPY sse/ /ssebench/\nFROM base\nCOPY src/main.c /ssebench/pocs/poc.bin\n`;
    expect(taskErrors(docker(dockerfile))).toEqual([]);
  });
});

describe("dataset validate: what must not be in a task folder", () => {
  test("a symlink leaving the task folder is an error; one inside it is fine", () => {
    const root = writeDataset(join(tmp.path, "links"), ["t"]);
    symlinkSync("/etc/passwd", join(root, "t", "sse", "passwd"));
    symlinkSync("../src/main.c", join(root, "t", "sse", "main.c"));
    expect(runValidate(root).stderr).toBe(`t:\n  sse/passwd: symlink to /etc/passwd, outside the task folder\n${root}: 1 of 1 tasks are invalid\n`);
  });

  test("a COPY source escaping the task folder is an error", () => {
    expect(taskErrors({ Dockerfile: `ARG SSEBENCH_REGISTRY=r\nFROM \${SSEBENCH_REGISTRY}/b:1\nCOPY ../../etc /etc2\nCOPY src /src\nCOPY sse/ /ssebench/\n` })).toEqual([
      "Dockerfile: copies ../../etc, which is outside the task folder",
    ]);
    // A name that merely starts with two dots is inside the folder, and what it copies counts.
    const dotted = { "..sse/build.sh": "echo build\n", Dockerfile: `ARG SSEBENCH_REGISTRY=r\nFROM \${SSEBENCH_REGISTRY}/b:1\nCOPY src /src\nCOPY sse/ /ssebench/\nCOPY ..sse/build.sh /ssebench/build.sh\n` };
    expect(taskErrors({ ...dotted, "sse/build.sh": null })).toEqual([]);
  });
});

describe("dataset validate: nothing is read through a rejected symlink", () => {
  test("a config linked to a host file counts as missing and its content never shows", () => {
    const root = writeDataset(join(tmp.path, "linked-config"), ["t"]);
    const secret = join(tmp.path, "secret.yaml");
    writeFileSync(secret, "id: the-secret-text\n");
    writeTask(root, "t", { "sse/config.yaml": null });
    symlinkSync(secret, join(root, "t/sse/config.yaml"));
    const out = runValidate(root);
    expect(out.stderr).toContain("  sse/config.yaml: missing\n");
    expect(out.stderr).toContain(`  sse/config.yaml: symlink to ${secret}, outside the task folder\n`);
    expect(out.stderr).not.toContain("the-secret-text");
  });
});
