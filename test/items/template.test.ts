import { describe, expect, test } from "bun:test";
import { deprecationMessage, docsUrl, Warnings } from "../../src/items/deprecations.ts";
import { optionsText } from "../../src/items/map.ts";
import { pyNumber } from "../../src/items/python.ts";
import { compileTemplate, renderTemplate } from "../../src/items/template.ts";

const render = (template: string, row: Record<string, unknown>) => renderTemplate(compileTemplate(template), template, row);

describe("map templates (Python str.format subset)", () => {
  test("fields, escapes, indexes, conversions, Python str() of values", () => {
    expect(render("{{{a}}}", { a: 1 })).toBe("{1}");
    expect(render("{b[1]}-{c[k]}-{c!r}", { b: ["x", "y"], c: { k: true } })).toBe("y-True-{'k': True}");
    expect(render("{n} {f} {z}", { n: null, f: 0.5, z: false })).toBe("None 0.5 False");
  });

  test("a missing column or index is an error naming the template", () => {
    expect(() => render("{a} {b}", { a: 1 })).toThrow("template '{a} {b}': the row has no column 'b'");
    expect(() => render("{a[3]}", { a: [1] })).toThrow("template '{a[3]}': the row has no column 'a[3]'");
  });

  test("options_text continues past Z as the reference does", () => {
    expect(optionsText(["x", 1, null])).toBe("A. x\nB. 1\nC. None");
    expect(optionsText(Array.from({ length: 28 }, (_, i) => i)).split("\n").slice(25)).toEqual(["Z. 25", "[. 26", "\\. 27"]);
  });

  test("Python float repr", () => {
    expect([pyNumber(1e-5), pyNumber(1.5e16 + 0.5), pyNumber(0.1), pyNumber(1e22)]).toEqual(["1e-05", "15000000000000000", "0.1", "10000000000000000000000"]);
  });
});

describe("deprecation warnings", () => {
  test("exact reference wording and URL; once per (code, where)", () => {
    expect(docsUrl("manifests/dataset.md#1-manifest-format")).toBe("https://outshift-open.github.io/mas-lab/manifests/dataset/#1-manifest-format");
    expect(deprecationMessage("dataset.bare_list", "d.yaml")).toBe(
      "Deprecated: dataset.bare_list in d.yaml; wrap items in apiVersion/kind: Dataset and spec.items. See https://outshift-open.github.io/mas-lab/manifests/dataset/#1-manifest-format (source: docs/manifests/dataset.md#1-manifest-format). This shape still loads; it will be removed in a future release.",
    );
    const lines: string[] = [];
    const w = new Warnings((l) => lines.push(l));
    w.deprecated("dataset.legacy_item", "a.yaml");
    w.deprecated("dataset.legacy_item", "a.yaml");
    w.deprecated("dataset.legacy_item", "b.yaml");
    expect(lines).toHaveLength(2);
  });
});
