import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { validateItemDataset } from "../../src/items/validate.ts";
import { declarative, tree } from "./helpers.ts";

async function validate(yaml: string, files: Record<string, string> = {}) {
  const dir = tree({ "ds.yaml": yaml, ...files });
  const warnings: string[] = [];
  const result = await validateItemDataset(join(dir, "ds.yaml"), (w) => warnings.push(w));
  const strip = (s: string) => s.replaceAll(`${dir}/`, "");
  return { problems: result.problems.map(strip), items: result.items, warnings };
}

describe("dataset validate: the JSON Schema (draft-07) with file:line:col and item ids", () => {
  test("a valid dataset passes and counts its items", async () => {
    const r = await validate(declarative("    - {id: a, inputs: {user: x}, category: c}\n    - {id: 2, inputs: {user: [a, b]}}\n"));
    expect(r).toEqual({ problems: [], items: 2, warnings: [] });
  });

  test("the flat form is reported like the reference's schema does", async () => {
    const r = await validate("name: flat\nitems:\n  - {id: a, prompt: x}\n");
    expect(r.problems).toEqual([
      "ds.yaml:1:1: apiVersion is required",
      "ds.yaml:1:1: kind is required",
      "ds.yaml:1:1: metadata is required",
      "ds.yaml:1:1: spec is required",
      "ds.yaml:1:1: name is not a valid property",
      "ds.yaml:2:1: items is not a valid property",
    ]);
  });

  test("wrong kind, unknown spec key (the removed item_schema), unquoted version", async () => {
    const r = await validate("apiVersion: lab/v1\nkind: Pipeline\nmetadata: {name: n, version: 1.0}\nspec:\n  item_schema: {}\n  items: [{id: a, inputs: {user: x}}]\n");
    expect(r.problems).toEqual([
      "ds.yaml:2:7: kind: must be 'Dataset'",
      "ds.yaml:3:30: metadata.version: must be string",
      "ds.yaml:5:3: spec.item_schema is not a valid property",
    ]);
  });

  test("oneOf quirks reproduce: integer ground_truth and {ref} checkpoint.load are ambiguous", async () => {
    const r = await validate(
      declarative("    - {id: a, inputs: {user: x}, expectations: {ground_truth: 42}}\n    - {id: b, inputs: {user: x, checkpoint: {load: {ref: cp.yaml}}}}\n"),
    );
    expect(r.problems).toEqual([
      "ds.yaml:7:63: item a: spec.items[0].expectations.ground_truth: is ambiguous: it matches more than one allowed shape (oneOf branches 1 and 2)",
      "ds.yaml:8:52: item b: spec.items[1].inputs.checkpoint.load: is ambiguous: it matches more than one allowed shape (oneOf branches 1 and 2)",
    ]);
  });

  test("empty user, empty by_tool, seed without content, id 1.5, item without id", async () => {
    const r = await validate(
      declarative(
        "    - {id: a, inputs: {user: ''}}\n    - {id: b, inputs: {user: x, tool_fixtures: {by_tool: {}}}}\n    - {id: c, inputs: {user: x, memory_seeds: [{source: s}]}}\n    - {id: 1.5, inputs: {user: x}}\n    - {inputs: {user: x}}\n",
      ),
    );
    expect(r.problems).toEqual([
      "ds.yaml:7:30: item a: spec.items[0].inputs.user: must NOT have fewer than 1 characters",
      "ds.yaml:8:58: item b: spec.items[1].inputs.tool_fixtures.by_tool: must NOT have fewer than 1 properties",
      "ds.yaml:9:48: item c: spec.items[2].inputs.memory_seeds[0].content is required",
      "ds.yaml:10:12: item 1.5: spec.items[3].id: does not match any allowed shape (expected string or integer)",
      "ds.yaml:11:7: item item: spec.items[4].id is required",
    ]);
  });

  test("a bad spec.schemas key is reported", async () => {
    const r = await validate(declarative("    - {id: a, inputs: {user: x}}\n", "  schemas:\n    inputs.user: {type: string}\n"));
    expect(r.problems).toEqual([
      "ds.yaml:7:5: spec.schemas.inputs.user is not a free-form part (use expectations.details[...] or inputs.tool_fixtures.by_tool.<tool>[...])",
    ]);
  });

  test("after the schema: duplicate ids, refs and spec.schemas are checked by loading", async () => {
    const dup = await validate(declarative("    - {id: a, inputs: {user: x}}\n    - {id: a, inputs: {user: y}}\n"));
    expect(dup.problems).toEqual(["ds.yaml:8:7: item a: duplicate item id 'a' (first defined at ds.yaml:7:7)"]);
    const missing = await validate(declarative("    - {id: a, inputs: {user: {ref: gone.txt}}}\n"));
    expect(missing.problems[0]).toMatch(/^ds\.yaml:7:30: item a: dataset ref 'gone\.txt' not found/);
  });
});

describe("spec.schemas: JSON Schemas for the free-form parts", () => {
  const spec =
    "  schemas:\n    inputs.tool_fixtures.by_tool.get_fares: {ref: fares.schema.yaml}\n    expectations.details:\n      type: object\n      properties: {booked: {type: boolean}}\n";
  const files = { "fares.schema.yaml": "type: object\nproperties:\n  fares: {type: array, items: {type: number}}\n" };

  test("a tool key checks the shared '*' payload; details are checked; violations name item and path", async () => {
    const r = await validate(
      declarative(
        "    - id: a\n      inputs: {user: x, tool_fixtures: {by_tool: {'*': {fares: [1, cheap]}}}}\n      expectations: {details: {booked: 'yes'}}\n    - {id: b, inputs: {user: x, tool_fixtures: {by_tool: {get_fares: {fares: [3]}}}}}\n    - {id: c, inputs: {user: x}}\n",
        spec,
      ),
      files,
    );
    expect(r.problems).toEqual([
      "ds.yaml:12:7: item a: inputs.tool_fixtures.by_tool.get_fares.fares.1: must be number",
      "ds.yaml:12:7: item a: expectations.details.booked: must be boolean",
    ]);
  });

  test("a missing schema file and an invalid schema are errors at the key", async () => {
    const missing = await validate(declarative("    - {id: a, inputs: {user: x}}\n", "  schemas:\n    expectations.details: nope.yaml\n"));
    expect(missing.problems[0]).toMatch(/^ds\.yaml:7:5: dataset ref 'nope\.yaml' not found/);
    const invalid = await validate(declarative("    - {id: a, inputs: {user: x}}\n", "  schemas:\n    expectations.details: {type: 5}\n"));
    expect(invalid.problems[0]).toMatch(/^ds\.yaml:7:5: spec.schemas.expectations.details: not a valid JSON Schema \(draft-07\): /);
  });
});
