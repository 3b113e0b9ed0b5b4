import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { parseYaml } from "../../src/items/yaml.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

describe("dataset schema exports the item-dataset and run-input schemas", () => {
  test("the exported files compile standalone (draft-07) and check documents as dataset validate does", async () => {
    const tmp = tempDir();
    try {
      const r = await ssebench(["dataset", "schema", "-o", tmp.path]);
      expect(r.stdout).toContain(`wrote ${tmp.path}/item-dataset.schema.json\n`);
      expect(r.stdout).toContain(`wrote ${tmp.path}/run-input.schema.json\n`);
      const read = (f: string) => JSON.parse(readFileSync(join(tmp.path, f), "utf8"));
      const ajv = new Ajv({ strict: false });
      const dataset = ajv.compile(read("item-dataset.schema.json"));
      const runInput = ajv.compile(read("run-input.schema.json"));
      const doc = (yaml: string) => parseYaml("t.yaml", yaml).value;
      expect(dataset(doc("apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: n}\nspec:\n  items: [{id: a, inputs: {user: x}}]\n"))).toBe(true);
      expect(dataset(doc("apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: n}\nspec:\n  items: []\n"))).toBe(false);
      expect(runInput({ inputs: { user: "x", tool_fixtures: { by_tool: { "*": { a: 1 } } } }, expectations: { ground_truth: "B" } })).toBe(true);
      expect(runInput({ inputs: { user: "x" }, expectations: { ground_truth: 42 } })).toBe(false);
      expect(runInput({ inputs: { hitl: ["y"] } })).toBe(false);
    } finally {
      tmp.cleanup();
    }
  });

});
