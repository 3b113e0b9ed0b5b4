import { describe, expect, test } from "bun:test";
import vectors from "./fixtures/unified-diff-vectors.json";
import { posixJoin, posixNormpath, posixRelpath, pythonRepr, pythonSplitLines } from "../../src/dataset/python-text.ts";
import { shlexSplit } from "../../src/dataset/shlex.ts";
import { unifiedDiff } from "../../src/dataset/unified-diff.ts";
import { parseYamlText } from "../../src/dataset/yaml-file.ts";

describe("unifiedDiff matches Python's difflib.unified_diff", () => {
  // Vectors generated once with CPython 3.11 difflib (lineterm=""), including 300-line inputs
  // where autojunk drops popular lines as anchors.
  vectors.forEach((v, i) => {
    test(`vector ${i}`, () => {
      expect(unifiedDiff(v.a, v.b, "m.json", "generated")).toEqual(v.diff);
    });
  });
});

describe("Python string helpers", () => {
  test("repr quotes like CPython", () => {
    expect(pythonRepr("other")).toBe("'other'");
    expect(pythonRepr("it's")).toBe(`"it's"`);
    expect(pythonRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pythonRepr("a\tb\\")).toBe("'a\\tb\\\\'");
  });

  test("splitlines, normpath, join, relpath", () => {
    expect(pythonSplitLines("a\r\nb\rc\n")).toEqual(["a", "b", "c"]);
    expect(pythonSplitLines("")).toEqual([]);
    expect(posixNormpath("/ssebench/../etc")).toBe("/etc");
    expect(posixNormpath("./a//b/")).toBe("a/b");
    expect(posixNormpath("../a/../../b")).toBe("../../b");
    expect(posixNormpath("")).toBe(".");
    expect(posixJoin("/a", "/b")).toBe("/b");
    expect(posixJoin("/a/", "b")).toBe("/a/b");
    expect(posixRelpath("/ssebench/x/y", "/ssebench")).toBe("x/y");
  });

  test("shlex.split (POSIX)", () => {
    expect(shlexSplit(`--chown=1:1 "a b" 'c d' e\\ f /dst`)).toEqual(["--chown=1:1", "a b", "c d", "e f", "/dst"]);
    expect(() => shlexSplit(`"open`)).toThrow();
  });
});

describe("YAML as PyYAML safe_load reads it", () => {
  test("1.1 scalars", () => {
    expect(parseYamlText("a:\nb: none\nc: yes\nd: off\ne: y\nf: 0123\ng: '12'\n")).toEqual({
      ok: true,
      data: { a: null, b: "none", c: true, d: false, e: "y", f: 83, g: "12" },
    });
  });

  test("failures are one line with a position", () => {
    for (const text of ["a: [1,\n", "a: b: c\n", "---\na: 1\n---\nb: 2\n", "a: \u0001\n"]) {
      const result = parseYamlText(text);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.cause).not.toContain("\n");
        expect(result.cause).toMatch(/line \d+, column \d+/);
      }
    }
  });
});
