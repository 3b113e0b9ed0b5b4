import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseYaml } from "../../src/items/yaml.ts";
import { load, loadError, loadText, tree } from "./helpers.ts";

const mmluRows =
  '{"question_id": "q1", "question": "What is 2+2?", "options": ["3", "4"], "answer_index": 1, "category": "math"}\n\n' +
  '{"question_id": "q2", "question": "Capital?", "options": ["Paris", true, 1.5, null], "answer_index": 0, "category": "geo"}\n' +
  "[1, 2]\n";
const mmluMap = `    map:\n      id: question_id\n      inputs.user: "{question}\\n{options_text}"\n      expectations.ground_truth: answer_index\n      category: category\n`;
const withSource = (source: string, extra = "") => `apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  source:\n${source}${extra}`;

describe("spec.source jsonl with a map", () => {
  test("MMLU-style map: ids, options_text with Python str(), int ground truth, category as metadata", async () => {
    const { items } = await loadText(withSource(`    kind: jsonl\n    path: rows.jsonl\n${mmluMap}`), { "rows.jsonl": mmluRows });
    expect(items).toEqual([
      { id: "q1", inputs: { user: "What is 2+2?\nA. 3\nB. 4" }, expectations: { ground_truth: 1 }, category: "math" },
      { id: "q2", inputs: { user: "Capital?\nA. Paris\nB. True\nC. 1.5\nD. None" }, expectations: { ground_truth: 0 }, category: "geo" },
    ]);
  });

  test("limit applies to rows before mapping; source rows come before inline items", async () => {
    const { items } = await loadText(
      withSource(`    kind: jsonl\n    path: rows.jsonl\n    limit: 1\n${mmluMap}`, "  items:\n    - {id: local, inputs: {user: inline}}\n"),
      { "rows.jsonl": mmluRows },
    );
    expect(items.map((i) => i.id)).toEqual(["q1", "local"]);
  });

  test("templates: {{ }} escapes, {col[0]}, !r, object forms template/format/column/field, literals", async () => {
    const map =
      "    map:\n      inputs.user: {template: '{{literal}} {q} {opts[0]} {q!r}'}\n      inputs.hitl: {format: '{q}?'}\n      meta.col: {column: q}\n      meta.fld: {field: nope}\n      meta.lit: {a: 1}\n      meta.const: 7\n      meta.absent: not_a_column\n      meta.null: null\n";
    const { items } = await loadText(withSource(`    kind: jsonl\n    path: r.jsonl\n${map}`), { "r.jsonl": '{"q": "hi", "opts": ["x", "y"]}\n' });
    expect(items[0]).toEqual({
      id: "0",
      inputs: { user: "{literal} hi x 'hi'", hitl: ["hi?"] },
      meta: { col: "hi", fld: null, lit: { a: 1 }, const: 7, absent: null, null: null },
    });
  });

  test("a column whose name has braces wins over the template reading", async () => {
    const { items } = await loadText(withSource(`    kind: jsonl\n    path: r.jsonl\n    map:\n      inputs.user: "{x}"\n`), {
      "r.jsonl": '{"{x}": "column", "x": "template"}\n',
    });
    expect(items[0]?.inputs.user).toBe("column");
  });

  test("template errors: missing column, single brace, format spec, positional", async () => {
    const err = (template: string) =>
      loadError(withSource(`    kind: jsonl\n    path: r.jsonl\n    map:\n      inputs.user: {template: '${template}'}\n`), { "r.jsonl": '{"q": "hi"}\n' });
    expect(await err("{q} {missing}")).toMatch(/r\.jsonl:1:1: item 0: template '\{q\} \{missing\}': the row has no column 'missing'$/);
    expect(await err("a } b")).toMatch(/ds\.yaml:9:20: template 'a \} b': Single '\}' encountered in format string$/);
    expect(await err("{q:>5}")).toEndWith("template '{q:>5}': format spec in {q:>5} is not supported");
    expect(await err("{} x")).toEndWith("template '{} x': positional field {}: name a column, e.g. {question}");
  });

  test("a mapped item without inputs.user is an error naming row and id", async () => {
    const error = await loadError(withSource("    kind: jsonl\n    path: r.jsonl\n    map: {id: k, inputs.user: empty}\n"), {
      "r.jsonl": '{"k": "a1", "empty": ""}\n',
    });
    expect(error).toMatch(/r\.jsonl:1:1: item a1: mapped item 'a1' missing inputs\.user$/);
  });

  test("no map: id/question_id/index, first prompt column, first present answer column", async () => {
    const rows = '{"question": "Q?", "answer": "B", "label": 1}\n{"id": 0, "prompt": "P", "label": null}\n{"text": ""}\n';
    const error = await loadError(withSource("    kind: jsonl\n    path: r.jsonl\n"), { "r.jsonl": rows });
    expect(error).toMatch(/r\.jsonl:3:1: item 2: source row has no question\/prompt\/text\/user and no map$/);
    const { items } = await loadText(withSource("    kind: jsonl\n    path: r.jsonl\n    limit: 2\n"), { "r.jsonl": rows });
    expect(items).toEqual([
      { id: "0", inputs: { user: "Q?" }, expectations: { ground_truth: "B" } },
      { id: "1", inputs: { user: "P" } },
    ]);
  });

  test("an invalid jsonl line names file:line:col", async () => {
    const error = await loadError(withSource("    kind: jsonl\n    path: r.jsonl\n"), { "r.jsonl": '{"q": "a"}\n  {"q": \n' });
    expect(error).toMatch(/r\.jsonl:2:3: invalid JSON: .+$/);
    expect(error.split("\n")).toHaveLength(1);
  });
});

describe("spec.source csv and glob", () => {
  test("csv with quotes, embedded newlines and commas, CRLF", async () => {
    const csv = 'id,question,answer\r\nc1,"Hello, ""world""\nsecond line",A\r\n\r\nc2,plain,B\r\n';
    const { items } = await loadText(withSource("    kind: csv\n    path: d.csv\n    map: {id: id, inputs.user: question, expectations.ground_truth: answer}\n"), {
      "d.csv": csv,
    });
    expect(items).toEqual([
      { id: "c1", inputs: { user: 'Hello, "world"\nsecond line' }, expectations: { ground_truth: "A" } },
      { id: "c2", inputs: { user: "plain" }, expectations: { ground_truth: "B" } },
    ]);
  });

  test("a ragged csv row is an error naming file:line", async () => {
    const error = await loadError(withSource("    kind: csv\n    path: d.csv\n"), { "d.csv": "id,question\na,Q1\nb,Q2,extra\n" });
    expect(error).toMatch(/d\.csv:3:1: row has 3 fields but the header has 2$/);
  });

  test("glob: sorted matches, YAML lists and mappings, jsonl and csv shards, directories skipped", async () => {
    const { items } = await loadText(withSource("    kind: glob\n    path: 'shards/**/*'\n"), {
      "shards/b.yaml": "- {id: b, question: B?}\n- not a mapping\n",
      "shards/a.yaml": "id: a\nquestion: A?\n",
      "shards/c.jsonl": '{"id": "c", "prompt": "C?"}\n',
      "shards/sub/d.csv": "id,text\nd,D?\n",
      "shards/sub-x/e.yaml": "{id: e, user: E?}\n",
    });
    expect(items.map((i) => [i.id, i.inputs.user])).toEqual([
      ["a", "A?"],
      ["b", "B?"],
      ["c", "C?"],
      ["d", "D?"],
      ["e", "E?"],
    ]);
  });

  test("source errors: kind missing, unknown kind, path missing or not found, pickle refused, bad limit", async () => {
    expect(await loadError(withSource("    path: x\n"))).toEndWith("spec.source needs kind");
    expect(await loadError(withSource("    kind: parquet\n"))).toMatch(/ds\.yaml:6:11: unknown spec.source.kind 'parquet'$/);
    expect(await loadError(withSource("    kind: jsonl\n"))).toEndWith("spec.source.path is required");
    expect(await loadError(withSource("    kind: csv\n    path: nope.csv\n"))).toMatch(/ds\.yaml:7:11: spec.source path not found: .*nope\.csv$/);
    expect(await loadError(withSource("    kind: glob\n"))).toEndWith("spec.source.path (glob) is required");
    expect(await loadError(withSource("    kind: pickle\n    path: x.pkl\n"))).toEndWith(
      "spec.source.kind 'pickle' is not supported: loading a pickle runs arbitrary Python code from the file; convert it to jsonl (one JSON object per line) and use kind: jsonl",
    );
    expect(await loadError(withSource("    kind: jsonl\n    path: r.jsonl\n    limit: -1\n"), { "r.jsonl": "" })).toEndWith(
      "spec.source.limit must be a whole number >= 1 (got -1)",
    );
    expect(await loadError(withSource("    kind: jsonl\n    paths: r.jsonl\n"))).toMatch(/ds\.yaml:7:5: spec.source.paths is not a valid property$/);
  });
});

describe("experiment-level source override", () => {
  test("shallow merge: the override's limit and map replace the dataset's; paths stay relative to the dataset", async () => {
    const dir = tree({
      "data/ds.yaml": withSource(`    kind: jsonl\n    path: rows.jsonl\n${mmluMap}`),
      "data/rows.jsonl": mmluRows,
      "exp/override.yaml": "limit: 1\nmap: {inputs.user: question}\n",
    });
    const file = parseYaml(join(dir, "exp/override.yaml"), "limit: 1\nmap: {inputs.user: question}\n");
    const { items } = await load(join(dir, "data/ds.yaml"), { value: file.value as Record<string, unknown>, file });
    expect(items).toEqual([{ id: "q1", inputs: { user: "What is 2+2?" } }]);
  });

  test("the override may supply a source the dataset does not have", async () => {
    const dir = tree({ "ds.yaml": "apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: n}\nspec:\n  path: missing-is-ignored.yaml\n", "r.jsonl": '{"question": "Q"}\n' });
    const file = parseYaml("o.yaml", "kind: jsonl\npath: r.jsonl\n");
    const { items } = await load(join(dir, "ds.yaml"), { value: file.value as Record<string, unknown>, file });
    expect(items).toEqual([{ id: "0", inputs: { user: "Q" } }]);
  });
});

describe("spec.path sidecars", () => {
  const sidecar = (path: string, extra = "") => `apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: s}\nspec:\n  path: ${path}\n${extra}`;

  test("yaml (list, items, spec.items), jsonl and csv rows are already-shaped items", async () => {
    expect((await loadText(sidecar("items.yaml"), { "items.yaml": "- {id: a, inputs: {user: A}}\n" })).items).toEqual([{ id: "a", inputs: { user: "A" } }]);
    expect((await loadText(sidecar("items.yaml"), { "items.yaml": "spec:\n  items: [{id: b, inputs: {user: B}}]\n" })).items[0]?.id).toBe("b");
    expect((await loadText(sidecar("i.jsonl"), { "i.jsonl": '{"id": "j", "inputs": {"user": "J"}}\n' })).items).toEqual([{ id: "j", inputs: { user: "J" } }]);
    const csv = await loadText(sidecar("i.csv"), { "i.csv": "id,question,topic\nc,Q,t\n" });
    expect(csv.items).toEqual([{ id: "c", inputs: { user: "Q" }, question: "Q", topic: "t" }]);
    expect(csv.warnings[0]).toStartWith("Deprecated: dataset.legacy_item in ");
  });

  test("JSON is refused, a missing sidecar is an error, the dataset itself is a cycle", async () => {
    expect(await loadError(sidecar("items.json"))).toMatch(/Dataset spec.path no longer accepts JSON \(.*items\.json\); inline spec.items in YAML or use spec.source \(jsonl\/csv\/huggingface\)$/);
    expect(await loadError(sidecar("nope.yaml"))).toMatch(/ds\.yaml:5:9: spec.path not found: .*nope\.yaml$/);
    expect(await loadError(sidecar("ds.yaml"))).toEndWith("ds.yaml:5:9: cyclic ref: spec.path names the dataset file itself");
    expect(await loadError(sidecar("../x.yaml"))).toContain("points outside the dataset's folder");
    expect(await loadError(sidecar("."))).toMatch(/ds\.yaml:5:9: spec.path not found: \/\S+$/);
  });
});
