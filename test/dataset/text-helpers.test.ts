import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import vectors from "./fixtures/unified-diff-vectors.json";
import { posixJoin, posixNormpath, posixRelpath, pythonRepr, pythonSplitLines } from "../../src/dataset/python-text.ts";
import { shlexSplit } from "../../src/dataset/shlex.ts";
import { unifiedDiff } from "../../src/dataset/unified-diff.ts";
import { parseYamlText, parseYamlTextFully } from "../../src/dataset/yaml-file.ts";

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

  test("PyYAML's narrower int, float, sexagesimal and timestamp resolvers", () => {
    // Strings to PyYAML 6 (checked with yaml.safe_load), numbers or dates to a generic 1.1 parser.
    const strings = ["1e5", "1.0e5", "09", "+.5", "0:30", "01:30", "2001-1-1", "1_0e+5", "-.5"];
    // Not strings to PyYAML either.
    const others = { a: "1.0e+5", b: "00", c: "1:30", d: "2001-01-01", e: ".5e-3", f: "0o", g: "-0" };
    for (const text of strings) {
      for (const parse of [parseYamlText, parseYamlTextFully]) expect(parse(`k: ${text}\nn: 1\n`)).toEqual({ ok: true, data: { k: text, n: 1 } });
    }
    const doc = parseYamlTextFully(Object.entries(others).map(([k, v]) => `${k}: ${v}`).join("\n"));
    expect(doc.ok && Object.values(doc.data as object).map((v) => typeof v)).toEqual(["number", "number", "number", "object", "number", "string", "number"]);
  });

  test("a list or mapping as a key is PyYAML's unhashable key, not a stringified key", () => {
    // Bun's parser would read `[id]: t` as {id: "t"}; PyYAML refuses it (positions as PyYAML's).
    for (const [text, where] of [["[id]: t\n", "line 1, column 1"], ["? [a]\n: x\n", "line 1, column 3"], ["k: {[a]: x}\n", "line 1, column 5"]]) {
      expect(parseYamlText(text as string)).toEqual({ ok: false, cause: `found unhashable key at ${where}` });
    }
    // Through an alias, PyYAML points at the anchor (column 4), the yaml package at the list.
    expect(parseYamlText("a: &l [x]\n*l : y\n")).toMatchObject({ ok: false, cause: expect.stringMatching(/^found unhashable key at line 1, column \d+$/) });
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

describe("the fast YAML path equals the full YAML 1.1 parse", () => {
  const corpus = [
    "id: t\nproject: p\nlist:\n- a\n- b\nnested:\n  x: ''\n  y:\n",
    "a: yes\nb: 'yes'\nc: 0123\nd: 1:20\ne: 2020-01-01\nf: .inf\ng: ~\nh: 0x1f\ni: 1_000\n",
    "yes: 1\nno: x\n",
    "a: |\n  line one\n  line two\nb: >\n  folded\n  text\n",
    "a: 'it''s'\nb: \"tab\\there\"\nc: plain # comment\n",
    "---\na: 1\n",
    "a: &x [1]\nb: *x\n",
    "a: !!str 12\n",
    "<<: {a: 1}\n",
    "a: [x, y]\nb: {c: d}\nc: []\nd: {}\n",
    "a: 833bf76c282d338e307ff7ec181b95cfc117deb2\nb: 12345\nc: '12345'\n",
    "",
    "# only a comment\n",
    "- a\n- b\n",
    "a: b: c\n",
    "issue: \"\"\nbug_description: none\n",
  ];
  for (const text of corpus) {
    test(JSON.stringify(text).slice(0, 60), () => {
      expect(parseYamlText(text)).toEqual(parseYamlTextFully(text));
    });
  }
});

describe("fast YAML path on real configs", () => {
  const pilot = join(import.meta.dir, "../../../shared/conformance/pilot");
  const demo = join(import.meta.dir, "../../datasets/demo");
  const configs = [pilot, demo].flatMap((root) =>
    existsSync(root) ? readdirSync(root).map((id) => join(root, id, "sse/config.yaml")).filter((p) => existsSync(p)) : [],
  );
  test.skipIf(configs.length === 0)("pilot and demo configs read the same both ways", () => {
    for (const path of configs) {
      const text = readFileSync(path, "utf8");
      expect(parseYamlText(text)).toEqual(parseYamlTextFully(text));
    }
  });
});

describe("fast YAML path: differential fuzz", () => {
  // Random line-based documents (mappings, sequences, every kind of scalar, stray indentation,
  // tabs, markers): wherever the fast path answers, it must answer what the full parse does.
  test("3,000 generated documents", () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)] as T;
    const scalars = ["a", "b c", "'q'", '"d q"', "x: y", "#c", "- z", "[1, 2]", "{a: b}", "|", ">", "yes", "No", "0123", "1.5", "~", "", "\t", "é", "a #b", "'it''s'", '"\\t"', "&a x", "*a", "!t x", "1:2", "2020-1-2", "null", "x\ty", "http://x.y/z"];
    const indents = ["", "", "  ", "  ", "    ", " ", "\t"];
    const mismatches: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const lines: string[] = [];
      for (let n = 1 + rnd(8); n > 0; n--) {
        const indent = pick(indents);
        const kind = rnd(5);
        if (kind === 0) lines.push(`${indent}- ${pick(scalars)}`);
        else if (kind === 1) lines.push(`${indent}${pick(["k", "a b", "yes", "1"])}:`);
        else if (kind === 2) lines.push(`${indent}${pick(["k", "key", "x_y"])}: ${pick(scalars)}`);
        else if (kind === 3) lines.push(`${indent}${pick(scalars)}`);
        else lines.push(pick(["", "# c", "---", "..."]));
      }
      const text = lines.join(pick(["\n", "\r\n"])) + pick(["", "\n"]);
      const fast = parseYamlText(text);
      if (JSON.stringify(fast) !== JSON.stringify(parseYamlTextFully(text)) && fast.ok) mismatches.push(text);
    }
    expect(mismatches).toEqual([]);
  });
});
