/**
 * The bad-input corpus (issue 2, item 7), run through the compiled binary: every input gives its
 * documented message line, exit 1, and never a stack trace. Run `bun run build` first.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasNoStackTrace, ssebench, tempDir } from "../helpers/cli.ts";
import { type TaskFiles, goodConfig, writeDataset, writeTask } from "./fixture.ts";

// Each run starts a process that loads arktype; on a shared 2-vCPU runner that can take seconds.
setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-bad-");
afterAll(tmp.cleanup);
let n = 0;

function datasetWith(overrides: TaskFiles, id = "t"): string {
  const root = writeDataset(join(tmp.path, `ds${n++}`), []);
  writeTask(root, id, overrides);
  return root;
}

async function expectFailure(args: string[], line: string | RegExp, cwd?: string) {
  const out = await ssebench(args, { cwd });
  expect(out.exitCode).toBe(1);
  expect(hasNoStackTrace(out.stderr)).toBe(true);
  const lines = out.stderr.split("\n");
  if (typeof line === "string") expect(lines).toContain(line);
  else expect(lines.some((l) => line.test(l))).toBe(true);
  return out;
}

describe("bad input gives one clear line and exit 1", () => {
  test("YAML syntax error in the config names the line", async () => {
    const root = datasetWith({ "sse/config.yaml": "id: t\nscripts:\n  build: [a,\n" });
    await expectFailure(["dataset", "validate", root], /^ {2}sse\/config\.yaml: cannot read: .* at line \d+, column \d+$/);
  });

  test("YAML syntax error in dataset.yaml", async () => {
    const root = datasetWith({});
    writeFileSync(join(root, "dataset.yaml"), "version: [x\n");
    await expectFailure(["dataset", "validate", root], new RegExp(`^${root}: dataset\\.yaml: cannot read: .* at line \\d+, column \\d+$`));
  });

  test("a config that is a list or a scalar", async () => {
    for (const text of ["- id: t\n", "42\n", ""]) {
      const root = datasetWith({ "sse/config.yaml": text });
      await expectFailure(["dataset", "validate", root], "  sse/config.yaml: Input should be a valid dictionary or instance of TaskMetadata");
    }
  });

  test("binary config and Dockerfile", async () => {
    const root = datasetWith({ "sse/config.yaml": new Uint8Array([0xff, 0xfe, 0x00, 0x41]), Dockerfile: new Uint8Array([0x80, 0x00]) });
    const out = await expectFailure(["dataset", "validate", root], "  sse/config.yaml: cannot read: not UTF-8 text");
    expect(out.stderr).toContain("  Dockerfile: not UTF-8 text\n");
    const nul = datasetWith({ "sse/config.yaml": `${goodConfig("t")}x: "\u0000"\n` });
    await expectFailure(["dataset", "validate", nul], /^ {2}sse\/config\.yaml: cannot read: unacceptable character #x0000/);
  });

  test("unreadable files: a folder or a FIFO where a file is expected", async () => {
    const dirConfig = datasetWith({ "sse/config.yaml": null });
    mkdirSync(join(dirConfig, "t/sse/config.yaml"));
    await expectFailure(["dataset", "validate", dirConfig], "  sse/config.yaml: cannot read: not a regular file");
    const fifo = datasetWith({ "sse/config.yaml": null, Dockerfile: null });
    execFileSync("mkfifo", [join(fifo, "t/sse/config.yaml"), join(fifo, "t/Dockerfile")]);
    const out = await expectFailure(["dataset", "validate", fifo], "  sse/config.yaml: cannot read: not a regular file");
    expect(out.stderr).toContain("  Dockerfile: not a regular file\n");
  });

  test("a symlink in a task folder that points outside it", async () => {
    const root = datasetWith({});
    symlinkSync("/etc/hostname", join(root, "t/sse/hostname"));
    await expectFailure(["dataset", "validate", root], "  sse/hostname: symlink to /etc/hostname, outside the task folder");
    await expectFailure(["dataset", "manifest", root, "-o", "-"], `${root}: not a valid dataset, so no manifest was generated`);
  });

  test("a task folder that is itself a symlink", async () => {
    const root = datasetWith({});
    const elsewhere = writeDataset(join(tmp.path, "elsewhere"), ["u"]);
    symlinkSync(join(elsewhere, "u"), join(root, "u"));
    await expectFailure(["dataset", "validate", root], `  the task folder is a symlink to ${join(elsewhere, "u")}; copy the task into the dataset instead`);
  });

  test("config paths escaping /ssebench", async () => {
    const root = datasetWith({ "sse/config.yaml": goodConfig("t").replace("run: run.sh", "run: ../../bin/sh") });
    await expectFailure(["dataset", "validate", root], "  sse/config.yaml: scripts.run: ../../bin/sh is outside /ssebench");
  });

  test("odd folder names", async () => {
    const root = datasetWith({ "sse/config.yaml": goodConfig("bad-name") }, "bad name");
    await expectFailure(["dataset", "validate", root], "  sse/config.yaml: id: 'bad-name' must equal the folder name");
    const oddDataset = writeDataset(join(tmp.path, "odd dataset!"), ["t"]);
    const out = await expectFailure(["dataset", "manifest", oddDataset, "-o", "-"], `${oddDataset}: not a valid dataset, so no manifest was generated`);
    expect(out.stderr).toContain("is not a valid dataset name");
  });

  test("missing, empty and file DIR", async () => {
    const missing = join(tmp.path, "missing");
    expect((await expectFailure(["dataset", "validate", missing], `${missing}: does not exist`)).stderr).toBe(`${missing}: does not exist\n`);
    const empty = join(tmp.path, "empty");
    mkdirSync(empty);
    const out = await expectFailure(["dataset", "validate", empty], `${empty}: no task folders`);
    expect(out.stderr).toContain(`${empty}: dataset.yaml: missing\n`);
    const file = join(tmp.path, "file.txt");
    writeFileSync(file, "x");
    await expectFailure(["dataset", "manifest", file], `${file}: not a directory`);
    const notes = await expectFailure(["dataset", "validate", file], `${file}: not a dataset; give a dataset folder (one with dataset.yaml and a folder per task) or an item dataset FILE.yaml (kind: Dataset)`);
    expect(notes.stderr.split("\n")).toHaveLength(2);
  });

  test("manifest --check and -o on a folder", async () => {
    const root = writeDataset(join(tmp.path, "outdir"), ["t"]);
    const folder = join(tmp.path, "a-folder");
    mkdirSync(folder);
    await expectFailure(["dataset", "manifest", root, "--check", "-o", folder], /^cannot read .*a-folder: EISDIR/);
    await expectFailure(["dataset", "manifest", root, "-o", folder], /^cannot write .*a-folder: EISDIR/);
  });

  test("no DIR outside a checkout", async () => {
    await expectFailure(["dataset", "validate"], /^no DIR given and no ssebench checkout above \/ \(looked for datasets\/demo\/dataset\.yaml\); give the dataset folder as DIR$/, "/");
  });

  // A symlink whose target cannot be read (EACCES on readlink; /proc/1/fd of another namespace
  // is the one place root meets it) is reported, not a crash.
  const unreadableLinks = "/proc/1/task/1/fd";
  let linksUnreadable = false;
  try {
    execFileSync("readlink", [`${unreadableLinks}/0`], { stdio: "ignore" });
  } catch {
    linksUnreadable = true;
  }
  test.skipIf(!linksUnreadable)("a symlink that cannot be read", async () => {
    const { walkTaskFolder } = await import("../../src/dataset/task-tree.ts");
    const tree = walkTaskFolder(unreadableLinks);
    expect(tree.problems[0]).toMatch(/^0: cannot read: EACCES/);
    expect(tree.rejected).toContain("0");
  });

  test("bad lock and records input", async () => {
    const root = writeDataset(join(tmp.path, "lockds"), ["t"]);
    writeFileSync(join(root, "images.lock.json"), "[1, 2]");
    await expectFailure(["dataset", "lock", root], `${join(root, "images.lock.json")} is not a valid images lock: Input should be a valid dictionary or instance of ImagesLock`);
    await expectFailure(["dataset", "lock", root, "--check"], `${join(root, "images.lock.json")} is not a valid images lock: Input should be a valid dictionary or instance of ImagesLock`);
    writeFileSync(join(root, "images.lock.json"), '{"dataset":"lockds","version":"demo-v1","images":{}}');
    await expectFailure(["dataset", "lock", root, "--records", join(tmp.path, "none")], `${join(tmp.path, "none")}: not a directory of publication records`);
  });
});
