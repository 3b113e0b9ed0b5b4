/**
 * `ssebench dataset items` and `dataset validate FILE.yaml` through the compiled binary (run
 * `bun run build` first), including the bad-input corpus: each document gives one clear line
 * naming file:line:col, exit 1, never a stack trace.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { hasNoStackTrace, ssebench, ssebenchBin } from "../helpers/cli.ts";
import { declarative, tree } from "./helpers.ts";

const good = declarative("    - {id: a, inputs: {user: Hello}, category: c}\n    - {id: b, prompt: Legacy}\n");

describe("ssebench dataset items", () => {
  test("prints the envelope items as JSON Lines, warnings on stderr", async () => {
    const dir = tree({ "ds.yaml": good });
    const r = await ssebench(["dataset", "items", "ds.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
      { id: "a", inputs: { user: "Hello" }, category: "c" },
      { id: "b", inputs: { user: "Legacy" }, prompt: "Legacy" },
    ]);
    expect(r.stderr).toStartWith("Deprecated: dataset.legacy_item in ds.yaml; use inputs.user + expectations");
  });

  test("values print as Python holds them: key order, big ints, -0.0, 4.0 (golden lines from CPython's json.dumps)", async () => {
    const dir = tree({
      "ds.yaml": declarative(
        '    - {id: i, inputs: {user: q}, b: 1, 2024: x, a: 2, big: 12345678901234567890, neg: -0.0, four: 4.0, e16: 1.0e+16, nested: {"10": 1, z: 2, "1": 3}}\n',
      ),
      "rows.yaml": "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  source:\n    kind: jsonl\n    path: r.jsonl\n    map: {id: id, inputs.user: \"{question}\\n{options_text}\", expectations.ground_truth: answer, weight: w}\n",
      "r.jsonl": '{"id": "q1", "question": "Q?", "options": [3, 4.0, "x", true, null], "answer": 12345678901234567890, "w": -0.0}\n',
    });
    const inline = await ssebench(["dataset", "items", "ds.yaml"], { cwd: dir });
    expect(inline).toMatchObject({ exitCode: 0, stderr: "" });
    expect(inline.stdout).toBe(
      '{"id":"i","inputs":{"user":"q"},"b":1,"2024":"x","a":2,"big":12345678901234567890,"neg":-0.0,"four":4.0,"e16":1e+16,"nested":{"10":1,"z":2,"1":3}}\n',
    );
    const rows = await ssebench(["dataset", "items", "rows.yaml"], { cwd: dir });
    expect(rows).toMatchObject({ exitCode: 0, stderr: "" });
    expect(rows.stdout).toBe('{"id":"q1","inputs":{"user":"Q?\\nA. 3\\nB. 4.0\\nC. x\\nD. True\\nE. None"},"expectations":{"ground_truth":12345678901234567890},"weight":-0.0}\n');
  });

  test("key order as written through the loader: map destinations, by_tool, folded expectations", async () => {
    const dir = tree({
      "ds.yaml": declarative('    - {id: i, inputs: {user: q, tool_fixtures: {by_tool: {b: 1, "7": 2}}}, expectations: {z: 1, "5": 2, ground_truth: x}}\n'),
      "rows.yaml": "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  source: {kind: jsonl, path: r.jsonl, map: {id: id, inputs.user: question, 2024: year, b: cat}}\n",
      "r.jsonl": '{"id": "r", "question": "Q", "year": 1, "cat": "c"}\n',
    });
    const inline = await ssebench(["dataset", "items", "ds.yaml"], { cwd: dir });
    expect(inline.stdout).toBe('{"id":"i","inputs":{"user":"q","tool_fixtures":{"by_tool":{"b":1,"7":2}}},"expectations":{"ground_truth":"x","details":{"z":1,"5":2}}}\n');
    const rows = await ssebench(["dataset", "items", "rows.yaml"], { cwd: dir });
    expect(rows).toMatchObject({ exitCode: 0, stdout: '{"id":"r","inputs":{"user":"Q"},"2024":1,"b":"c"}\n' });
  });

  test("--limit N and --source-override FILE", async () => {
    const dir = tree({
      "ds.yaml": "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  source: {kind: jsonl, path: r.jsonl}\n",
      "r.jsonl": Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: `r${i}`, question: `Q${i}`, topic: "t" })).join("\n"),
      "over.yaml": "map: {id: id, inputs.user: '{question}!', topic: topic}\nlimit: 3\n",
    });
    const limited = await ssebench(["dataset", "items", "ds.yaml", "--limit", "2"], { cwd: dir });
    expect(limited.stdout.trim().split("\n").map((l) => JSON.parse(l).id)).toEqual(["r0", "r1"]);
    const over = await ssebench(["dataset", "items", "ds.yaml", "--source-override", "over.yaml"], { cwd: dir });
    expect(over.exitCode).toBe(0);
    expect(over.stdout.trim().split("\n").map((l) => JSON.parse(l))).toEqual([
      { id: "r0", inputs: { user: "Q0!" }, topic: "t" },
      { id: "r1", inputs: { user: "Q1!" }, topic: "t" },
      { id: "r2", inputs: { user: "Q2!" }, topic: "t" },
    ]);
  });

  test("an override that is not a mapping names its file once", async () => {
    const dir = tree({ "ds.yaml": good, "over.yaml": "- kind: csv\n" });
    const r = await ssebench(["dataset", "items", "ds.yaml", "--source-override", "over.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("over.yaml:1:1: a source override must be a mapping of spec.source fields\n");
  });

  test("a reader that stops early (| head) ends the output quietly, exit 0", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ id: `r${i}`, question: `Q${i}` })).join("\n");
    const dir = tree({
      "ds.yaml": "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  source: {kind: jsonl, path: r.jsonl}\n",
      "r.jsonl": rows,
    });
    // Used to be exit 70 with an EPIPE stack trace per pending chunk.
    const proc = Bun.spawn(["bash", "-c", 'set -o pipefail; "$0" dataset items ds.yaml 2>err.txt | head -n 1', ssebenchBin], { cwd: dir, stdout: "pipe" });
    const first = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(first)).toEqual({ id: "r0", inputs: { user: "Q0" } });
    expect(await Bun.file(join(dir, "err.txt")).text()).toBe("");
  });

  test("a second FILE is a usage error, not silently ignored", async () => {
    const dir = tree({ "a.yaml": good, "b.yaml": good });
    const r = await ssebench(["dataset", "items", "a.yaml", "b.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("ssebench dataset items: unexpected argument 'b.yaml' (see 'ssebench dataset items --help')\n");
  });

  test("each line keeps to_dict() order: id, inputs, expectations, then metadata, integer-like keys too", async () => {
    const dir = tree({ "ds.yaml": declarative('    - {id: a, inputs: {user: hi}, expectations: {ground_truth: B}, "2024": x, z: 1}\n') });
    const r = await ssebench(["dataset", "items", "ds.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"id":"a","inputs":{"user":"hi"},"expectations":{"ground_truth":"B"},"2024":"x","z":1}\n');
  });

  test("a bad --limit is a usage error (exit 2)", async () => {
    const r = await ssebench(["dataset", "items", "x.yaml", "--limit", "0"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("ssebench dataset items: --limit must be a whole number >= 1 (got '0')\n");
  });

  test("duplicate ids: items are printed, the problem is reported, exit 1", async () => {
    const dir = tree({ "ds.yaml": declarative("    - {id: a, inputs: {user: x}}\n    - {id: a, inputs: {user: y}}\n") });
    const r = await ssebench(["dataset", "items", "ds.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(r.stderr).toBe("ds.yaml:8:7: item a: duplicate item id 'a' (first defined at ds.yaml:7:7)\n");
  });
});

describe("ssebench dataset validate FILE.yaml", () => {
  test("a valid item dataset", async () => {
    const dir = tree({ "ds.yaml": good });
    const r = await ssebench(["dataset", "validate", "ds.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("ds.yaml: ok, item dataset, 2 items\n");
  });

  test("every schema violation, one line each, exit 1", async () => {
    const dir = tree({ "ds.yaml": declarative("    - {id: a, inputs: {user: ''}}\n    - {id: b, inputs: {user: x}, expectations: {ground_truth: 4}}\n") });
    const r = await ssebench(["dataset", "validate", "ds.yaml"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      "ds.yaml:7:30: item a: spec.items[0].inputs.user: must NOT have fewer than 1 characters",
      "ds.yaml:8:63: item b: spec.items[1].expectations.ground_truth: is ambiguous: it matches more than one allowed shape (oneOf branches 1 and 2)",
    ]);
  });
});

describe("bad-input corpus: one clear line, exit 1, no stack trace", () => {
  const header = "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: bad}\nspec:\n";
  const corpus: { name: string; files: Record<string, string>; items: string; validate?: string }[] = [
    {
      name: "wrong kind",
      files: { "ds.yaml": "apiVersion: lab/v1\nkind: Pipeline\nmetadata: {name: x}\nspec: {items: [{id: a, inputs: {user: x}}]}\n" },
      items: "ds.yaml:2:7: kind must be 'Dataset' for an item dataset (got 'Pipeline')",
      validate: "ds.yaml:2:7: kind: must be 'Dataset'",
    },
    {
      name: "unknown key",
      files: { "ds.yaml": `${header}  item_schema: {}\n  items: [{id: a, inputs: {user: x}}]\n` },
      items: "ds.yaml:5:3: spec.item_schema is not a valid property",
      validate: "ds.yaml:5:3: spec.item_schema is not a valid property",
    },
    {
      name: "ref to a missing file",
      files: { "ds.yaml": `${header}  items:\n    - {id: a, inputs: {user: {ref: gone.txt}}}\n` },
      items: "ds.yaml:6:30: item a: dataset ref 'gone.txt' not found (looked for ",
    },
    {
      name: "ref escaping upward",
      files: { "ds/ds.yaml": `${header}  items:\n    - {id: a, inputs: {user: x, tool_fixtures: ../secret.yaml}}\n`, "secret.yaml": "k: v\n" },
      items:
        "ds/ds.yaml:6:48: item a: dataset ref '../secret.yaml' points outside the dataset's folder; refs must stay inside it (copy the file next to the dataset)",
    },
    {
      name: "cyclic refs",
      files: { "ds.yaml": `${header}  items:\n    - {id: a, inputs: {user: x, memory_seeds: a.yaml}}\n`, "a.yaml": "ref: b.yaml\n", "b.yaml": "ref: a.yaml\n" },
      items: "ds.yaml:6:47: item a: cyclic ref: a.yaml -> b.yaml -> a.yaml",
    },
    {
      name: "catalog {id:} ref",
      files: { "ds.yaml": `${header}  items:\n    - {id: a, inputs: {user: {id: lib/prompt}}}\n` },
      items: "ds.yaml:6:30: item a: catalog id refs are not resolved yet: 'lib/prompt'",
    },
    {
      name: "csv with ragged rows",
      files: { "ds.yaml": `${header}  source: {kind: csv, path: d.csv}\n`, "d.csv": "id,question\na,Q\nb,Q,extra\n" },
      items: "d.csv:3:1: row has 3 fields but the header has 2",
    },
    {
      name: "invalid jsonl line",
      files: { "ds.yaml": `${header}  source: {kind: jsonl, path: d.jsonl}\n`, "d.jsonl": '{"question": "ok"}\n{"question": oops}\n' },
      items: "d.jsonl:2:1: invalid JSON: ",
    },
    {
      name: "YAML syntax error",
      files: { "ds.yaml": `${header}  items: [\n` },
      items: "ds.yaml:6:1: YAML: ",
    },
    {
      name: "missing file",
      files: {},
      items: "ds.yaml: no such file",
    },
  ];

  for (const entry of corpus) {
    test(entry.name, async () => {
      const dir = tree({ ...entry.files, "ds/.keep": "" });
      const file = entry.files["ds/ds.yaml"] ? join("ds", "ds.yaml") : "ds.yaml";
      for (const [command, expected] of [
        ["items", entry.items],
        ["validate", entry.validate ?? entry.items.replace(/^ds\.yaml: no such file$/, "")],
      ] as const) {
        if (command === "validate" && !entry.files[file] && entry.name === "missing file") continue;
        const r = await ssebench(["dataset", command, file], { cwd: dir });
        expect(r.exitCode).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
        expect(r.stderr).toStartWith(expected);
        expect(hasNoStackTrace(r.stderr)).toBe(true);
      }
    });
  }
});
