/**
 * `dataset validate` checks a task's upstream/sources.yaml offline, through the compiled binary:
 * each problem is one line naming the file and the key, in the words `ssebench run` uses when it
 * fetches the pins (docs/dataset-debian.md), exit 1; a valid one adds nothing. Build first.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { hasNoStackTrace, ssebench, tempDir } from "../helpers/cli.ts";
import { GOOD_DOCKERFILE, type TaskFiles, writeDataset, writeTask } from "./fixture.ts";

setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-sources-");
afterAll(tmp.cleanup);
let n = 0;

const SHA = "0123456789abcdef".repeat(4);
const SOURCES = `package: demo
version: 1.0-1
files:
- url: http://deb.debian.org/debian/pool/main/d/demo/demo_1.0-1.dsc
  sha256: ${SHA}
`;
const DOCKERFILE = `${GOOD_DOCKERFILE}COPY upstream /tmp/upstream\n`;

async function validate(files: TaskFiles) {
  const root = writeDataset(join(tmp.path, `ds${n++}`), []);
  writeTask(root, "t", { Dockerfile: DOCKERFILE, ...files });
  const out = await ssebench(["dataset", "validate", root]);
  expect(hasNoStackTrace(out.stderr)).toBe(true);
  return { root, ...out };
}

describe("dataset validate: upstream/sources.yaml", () => {
  test("a valid one passes", async () => {
    const out = await validate({ "upstream/sources.yaml": SOURCES });
    expect([out.exitCode, out.stdout, out.stderr]).toEqual([0, `${out.root}: 1 tasks are valid\n`, ""]);
  });

  test("a malformed one: a line per problem, naming the file and the key", async () => {
    const bad = SOURCES.replace("version: 1.0-1\n", "cwe: 787\n").replace(SHA, SHA.toUpperCase());
    const out = await validate({ "upstream/sources.yaml": bad });
    expect([out.exitCode, out.stderr]).toEqual([
      1,
      [
        "t:",
        "  upstream/sources.yaml: version: must be a non-empty string",
        "  upstream/sources.yaml: cwe: must look like CWE-787",
        "  upstream/sources.yaml: files[0].sha256: must be 64 lowercase hex digits",
        `${out.root}: 1 of 1 tasks are invalid`,
        "",
      ].join("\n"),
    ]);
  });

  test("YAML that does not parse, and a document that is no mapping", async () => {
    const broken = await validate({ "upstream/sources.yaml": "files: [x\n" });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr.split("\n")).toContainEqual(expect.stringMatching(/^ {2}upstream\/sources\.yaml: cannot read: .* at line \d+, column \d+$/));
    const list = await validate({ "upstream/sources.yaml": "- a\n" });
    expect([list.exitCode, list.stderr.split("\n")[1]]).toEqual([1, "  upstream/sources.yaml: must be a mapping"]);
  });

  test("a pinned file the folder also has, and a Dockerfile that copies nothing of upstream/", async () => {
    const shadowed = await validate({ "upstream/sources.yaml": SOURCES, "upstream/demo_1.0-1.dsc": "stale\n" });
    expect([shadowed.exitCode, shadowed.stderr.split("\n")[1]]).toEqual([
      1,
      "  upstream/sources.yaml: files[0].url: the task folder has its own upstream/demo_1.0-1.dsc, which the fetched file would replace",
    ]);
    const uncopied = await validate({ "upstream/sources.yaml": SOURCES, Dockerfile: GOOD_DOCKERFILE });
    expect([uncopied.exitCode, uncopied.stderr.split("\n")[1]]).toEqual([
      1,
      "  Dockerfile: copies nothing of upstream/, so the files upstream/sources.yaml pins never reach the build",
    ]);
  });
});
