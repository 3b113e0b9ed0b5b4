import { describe, expect, test } from "bun:test";
import { deprecationMessage } from "../../src/items/deprecations.ts";
import { declarative, loadError, loadText } from "./helpers.ts";

describe("items: envelope, ids and metadata", () => {
  test("envelope item keeps extra keys as metadata, after id/inputs/expectations", async () => {
    const { items, warnings } = await loadText(
      declarative("    - id: a\n      category: smoke\n      inputs: {user: Hello}\n      expectations: {ground_truth: x, metrics: [m]}\n"),
    );
    expect(items).toEqual([{ id: "a", inputs: { user: "Hello" }, expectations: { ground_truth: "x", metrics: ["m"] }, category: "smoke" }]);
    expect(Object.keys(items[0] ?? {})).toEqual(["id", "inputs", "expectations", "category"]);
    expect(warnings).toEqual([]);
  });

  test("ids: missing → 'item', YAML 1.1 coercions then Python str()", async () => {
    const { items } = await loadText(
      declarative("    - inputs: {user: a}\n    - {id: 010, inputs: {user: b}}\n    - {id: 08, inputs: {user: c}}\n    - {id: yes, inputs: {user: d}}\n    - {id: 1:20, inputs: {user: e}}\n"),
    );
    expect(items.map((i) => i.id)).toEqual(["item", "8", "08", "True", "80"]);
  });

  test("a user string that looks like a file name stays text; a list of strings stays a list", async () => {
    const { items } = await loadText(declarative("    - {id: a, inputs: {user: prompt.txt}}\n    - {id: b, inputs: {user: [one, two]}}\n"), {
      "prompt.txt": "from file\n",
    });
    expect(items.map((i) => i.inputs.user)).toEqual(["prompt.txt", ["one", "two"]]);
  });

  test("hitl, session_id and checkpoint appear only when set", async () => {
    const { items } = await loadText(
      declarative("    - id: a\n      inputs: {user: hi, hitl: [Approve], session_id: s1, checkpoint: {save: true}}\n    - {id: b, inputs: {user: hi, session_id: '', checkpoint: {}}}\n"),
    );
    expect(items[0]?.inputs).toEqual({ user: "hi", hitl: ["Approve"], session_id: "s1", checkpoint: { load: null, save: true } });
    expect(items[1]?.inputs).toEqual({ user: "hi" });
  });

  test("an item with only an id gets an empty prompt; user: [] too", async () => {
    const { items } = await loadText(declarative("    - {id: '001'}\n    - {id: b, inputs: {user: []}}\n"));
    expect(items.map((i) => i.inputs.user)).toEqual(["", ""]);
  });

  test("duplicate ids are reported with both places", async () => {
    const { items, problems, dir } = await loadText(declarative("    - {id: a, inputs: {user: x}}\n    - {id: a, inputs: {user: y}}\n"));
    expect(items).toHaveLength(2);
    expect(problems).toEqual([`${dir}/ds.yaml:8:7: item a: duplicate item id 'a' (first defined at ${dir}/ds.yaml:7:7)`]);
  });

  test("an unknown inputs key is an error naming file:line:col and the item", async () => {
    const error = await loadError(declarative("    - id: a\n      inputs:\n        user: x\n        usr: y\n"));
    expect(error).toEndWith("ds.yaml:10:9: item a: inputs.usr is not a valid property");
  });
});

describe("items: legacy shapes", () => {
  test("prompt + expected_answer + memory_seeds load with one legacy warning; keys stay in metadata", async () => {
    const { items, warnings, dir } = await loadText(
      declarative("    - {id: a, prompt: Hi, expected_answer: B, memory_seeds: [{content: c}]}\n    - {id: b, query: Q}\n"),
    );
    expect(items[0]).toEqual({
      id: "a",
      inputs: { user: "Hi", memory_seeds: [{ content: "c" }] },
      expectations: { ground_truth: "B" },
      prompt: "Hi",
      expected_answer: "B",
      memory_seeds: [{ content: "c" }],
    });
    expect(items[1]?.inputs).toEqual({ user: "Q" });
    expect(warnings).toEqual([deprecationMessage("dataset.legacy_item", `${dir}/ds.yaml`)]);
    expect(warnings[0]).toContain("https://outshift-open.github.io/mas-lab/manifests/dataset-migration/ (source: docs/manifests/dataset-migration.md)");
  });

  test("turns: extra users and HITL replies", async () => {
    const { items } = await loadText(
      declarative("    - id: a\n      prompt: First\n      turns: [{content: Second}, {role: hitl, content: Approve}, {role: system, content: s}]\n"),
    );
    expect(items[0]?.inputs).toEqual({ user: ["First", "Second"], hitl: ["Approve"] });
  });

  test("role-list user loads with the role_list_user warning; system messages drop out", async () => {
    const { items, warnings } = await loadText(
      declarative("    - id: 1\n      inputs:\n        user:\n          - {role: system, content: be brief}\n          - {role: user, content: Hello}\n"),
    );
    expect(items[0]?.inputs.user).toBe("Hello");
    expect(warnings[0]).toStartWith("Deprecated: dataset.role_list_user in ");
  });

  test("ground truth from legacy keys uses truthiness (0 is lost, as in the reference)", async () => {
    const { items } = await loadText(declarative("    - {id: a, prompt: p, ground_truth: 0}\n"));
    expect(items[0]?.expectations).toBeUndefined();
  });

  test("the flat form loads with a flat_form warning; a bare list with bare_list", async () => {
    const flat = await loadText("name: flat\nitems:\n  - {id: a, inputs: {user: x}}\n");
    expect(flat.items).toHaveLength(1);
    expect(flat.warnings).toEqual([deprecationMessage("dataset.flat_form", `${flat.dir}/ds.yaml`)]);
    const bare = await loadText("- {id: a, prompt: x}\n- just a string\n");
    expect(bare.items.map((i) => i.id)).toEqual(["a"]);
    expect(bare.warnings.map((w) => w.split(" in ")[0])).toEqual(["Deprecated: dataset.bare_list", "Deprecated: dataset.legacy_item"]);
  });

  test("empty file and falsy documents are a dataset with no items", async () => {
    expect((await loadText("")).items).toEqual([]);
    expect((await loadText("false\n")).items).toEqual([]);
  });
});

describe("items: expectations", () => {
  test("app-specific keys fold under details with a warning", async () => {
    const { items, warnings } = await loadText(
      declarative("    - id: a\n      inputs: {user: x}\n      expectations: {ground_truth: g, correct_action: block, details: {k: 1}}\n"),
    );
    expect(items[0]?.expectations).toEqual({ ground_truth: "g", details: { k: 1, correct_action: "block" } });
    expect(warnings[0]).toStartWith("Deprecated: dataset.legacy_expectations in ");
  });

  test("a folded key that already exists in details is an error", async () => {
    const error = await loadError(
      declarative("    - id: a\n      inputs: {user: x}\n      expectations: {correct_action: b, details: {correct_action: c}}\n"),
    );
    expect(error).toEndWith("ds.yaml:9:21: item a: expectations keys ['correct_action'] already exist in details");
  });

  test("expectations from a {ref} file; a non-mapping is an error", async () => {
    const { items } = await loadText(declarative("    - {id: a, inputs: {user: x}, expectations: {ref: exp.yaml}}\n"), {
      "exp.yaml": "ground_truth: 42\n",
    });
    expect(items[0]?.expectations).toEqual({ ground_truth: 42 });
    const error = await loadError(declarative("    - {id: a, inputs: {user: x}, expectations: just text}\n"));
    expect(error).toEndWith("item a: expectations must resolve to a mapping");
  });
});
