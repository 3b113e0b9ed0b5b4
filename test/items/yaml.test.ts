import { describe, expect, test } from "bun:test";
import { PyFloat } from "../../src/items/py-values.ts";
import { pyRepr, pyStr } from "../../src/items/python.ts";
import { parseYaml } from "../../src/items/yaml.ts";

describe("YAML 1.1 scalars as PyYAML reads them", () => {
  const value = (text: string) => (parseYaml("t.yaml", `v: ${text}\n`).value as { v: unknown }).v;

  test.each([
    ["001", 1],
    ["010", 8],
    ["08", "08"],
    ["1:20", 80],
    ["yes", true],
    ["Off", false],
    ["y", "y"],
    ["n", "n"],
    ["0x1F", 31],
    ["1_000", 1000],
    ["1e5", "1e5"],
    ["1.5e+3", new PyFloat(1500)],
    ["-0.0", new PyFloat(-0)],
    ["12345678901234567890", 12345678901234567890n],
    ["~", null],
    ["2026-01-02", "2026-01-02"],
    ["2026-01-02 10:00:00", "2026-01-02 10:00:00"],
    ["2026-01-02T10:00:00.5Z", "2026-01-02 10:00:00.500000+00:00"],
  ])("%s", (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  test("floats keep their float-ness in str() and repr(): 4.0, -0.0, 1e+16", () => {
    expect([value("4.0"), value("-0.0"), value("1.0e+16"), value("1.5e+3")].map(pyStr)).toEqual(["4.0", "-0.0", "1e+16", "1500.0"]);
    expect(`${value("4.0")}`).toBe("4.0");
    expect(pyRepr(parseYaml("t.yaml", "{b: 1, 2: 2.0, a: [1.0]}\n").value)).toBe("{'b': 1, '2': 2.0, 'a': [1.0]}");
  });

  test("ids stringify like Python's str()", () => {
    expect(pyStr(value("yes"))).toBe("True");
    expect(pyStr(value("010"))).toBe("8");
    expect(pyStr(value("1:20"))).toBe("80");
    expect(pyStr(null)).toBe("None");
    expect(pyStr(["a", 1, true, null])).toBe("['a', 1, True, None]");
    expect(pyRepr({ k: "it's" })).toBe(`{'k': "it's"}`);
    expect(pyStr(2.5)).toBe("2.5");
  });

  test("errors name file, line and column", () => {
    expect(() => parseYaml("bad.yaml", "a: 1\na: 2\n")).toThrow("bad.yaml:2:1: YAML: Map keys must be unique");
  });

  test("a tag safe_load has no constructor for is an error, as PyYAML's ConstructorError", () => {
    const thrown = (text: string) => {
      try {
        parseYaml("t.yaml", text);
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    };
    expect(thrown("spec:\n  x: !custom 1\n")).toBe("t.yaml:2:6: YAML: could not determine a constructor for the tag '!custom'");
    expect(thrown("- !!python/object:os.system {}\n")).toBe(
      "t.yaml:1:3: YAML: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'",
    );
    // PyYAML's node starts at an anchor written before the tag (line 1, column 4 here).
    expect(thrown("a: &x !foo [1]\n")).toBe("t.yaml:1:4: YAML: could not determine a constructor for the tag '!foo'");
    // The standard tags still load.
    expect(parseYaml("t.yaml", "a: !!str 1\nb: !!int '2'\nc: !!set {x}\n").value).toEqual({ a: "1", b: 2, c: new Set(["x"]) });
  });

  test("at() finds keys and values", () => {
    const doc = parseYaml("t.yaml", "spec:\n  items:\n    - id: a\n      inputs: {user: hi}\n");
    expect(doc.at(["spec", "items", 0, "inputs", "user"])).toBe("t.yaml:4:22");
    expect(doc.at(["spec", "items", 0, "inputs"], true)).toBe("t.yaml:4:7");
    expect(doc.at(["spec", "items", 0, "missing"])).toBe("t.yaml:3:7");
  });
});
