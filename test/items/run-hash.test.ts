import { describe, expect, test } from "bun:test";
import { computeRunHash, fingerprintRunInput, pythonJsonDumps } from "../../src/items/run-hash.ts";

// Golden values computed with CPython 3 `json.dumps(payload, sort_keys=True, default=str)`.
describe("run hash", () => {
  test("floats with integral values, -0.0 and big ints hash as Python's (4.0, not 4)", async () => {
    const { parseYaml } = await import("../../src/items/yaml.ts");
    const expectations = parseYaml("t.yaml", "{ground_truth: 4.0, big: 12345678901234567890, neg: -0.0}\n").value;
    const payload = { manifest: null, run_input: { inputs: { user: "A. 3\nB. 4.0" }, expectations }, item_id: "q1", run_idx: 0, flavour: {}, infra: null };
    expect(pythonJsonDumps(payload)).toBe(
      '{"flavour": {}, "infra": null, "item_id": "q1", "manifest": null, "run_idx": 0, "run_input": {"expectations": {"big": 12345678901234567890, "ground_truth": 4.0, "neg": -0.0}, "inputs": {"user": "A. 3\\nB. 4.0"}}}',
    );
    expect(computeRunHash(payload)).toBe("90be7a4bf77f65ba8148");
  });

  test("matches Python for an MMLU-style item", () => {
    const payload = {
      manifest: { name: "demo", agents: ["a", "b"] },
      run_input: { inputs: { user: "What is 2+2?\nA. 3\nB. 4" }, expectations: { ground_truth: 1 } },
      item_id: "q1",
      run_idx: 0,
      flavour: { _effective_model: "gpt-x" },
      infra: null,
    };
    expect(pythonJsonDumps(payload)).toBe(
      '{"flavour": {"_effective_model": "gpt-x"}, "infra": null, "item_id": "q1", "manifest": {"agents": ["a", "b"], "name": "demo"}, "run_idx": 0, "run_input": {"expectations": {"ground_truth": 1}, "inputs": {"user": "What is 2+2?\\nA. 3\\nB. 4"}}}',
    );
    expect(computeRunHash(payload)).toBe("80a665d814a51e09e419");
  });

  test("matches Python with non-ASCII, astral characters, escapes, floats and booleans", () => {
    const payload = {
      manifest: {},
      run_input: { inputs: { user: ["Grüße", "naïve — ok", "emoji 😀"], hitl: ["yes"] } },
      item_id: "2",
      run_idx: 3,
      flavour: { temperature: 0.25, big: 1e-5, z: true, a: false },
      infra: { b: [1, 2.5, null], a: 'x"y\\z\t' },
    };
    expect(computeRunHash(payload)).toBe("b07cd69043f1b396a789");
  });

  test("changes when only the expectations change", () => {
    const base = { manifest: {}, item_id: "a", run_idx: 0, flavour: {}, infra: null };
    const one = computeRunHash({ ...base, run_input: { inputs: { user: "x" }, expectations: { ground_truth: "A" } } });
    const two = computeRunHash({ ...base, run_input: { inputs: { user: "x" }, expectations: { ground_truth: "B" } } });
    expect(one).toHaveLength(20);
    expect(one).not.toBe(two);
  });

  test("fingerprint is the full SHA-256 of the envelope", () => {
    expect(fingerprintRunInput({ inputs: { user: "Hello" } })).toBe(
      "ed31063462b70eeb98f69c5d4b2cf2eee95517c9656fc9563d6f303d5f4391ab",
    );
  });

  test("float repr and escaping follow Python", () => {
    expect(pythonJsonDumps({ s: 1.5e-7, t: 123456.789, u: "\x7f\u00e9\u{1F600}" })).toBe(
      '{"s": 1.5e-07, "t": 123456.789, "u": "\\u007f\\u00e9\\ud83d\\ude00"}',
    );
  });
});
