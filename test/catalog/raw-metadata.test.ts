import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseManifest } from "../../src/formats/manifest/manifest.ts";
import { metadataTexts } from "../../src/catalog/raw-metadata.ts";
import { compactJson as compact } from "../../src/formats/compat/json-scan.ts";

describe("metadata as written (Go's json.RawMessage, compacted)", () => {
  test("each task's metadata text in file order: escapes, key order and repeated keys kept", () => {
    const text = `{"dataset": "d", "tasks": [
      {"id": "a", "metadata": {"b": "x \\u00e9 \\/ \\"q\\"", "a": [1, {"k": null}]}, "files": {}},
      {"id": "b"},
      {"metadata": {"x": 1}, "id": "c", "metadata": { "y" : "  two  words " }}
    ], "version": "v"}`;
    expect(metadataTexts(text)).toEqual(['{"b":"x \\u00e9 \\/ \\"q\\"","a":[1,{"k":null}]}', undefined, '{"y":"  two  words "}']);
  });

  test("compact keeps whitespace inside strings only", () => {
    expect(compact('{ "a" : [ 1 ,\r\n\t2 ], "b": " x\\" y " }')).toBe('{"a":[1,2],"b":" x\\" y "}');
  });
});

describe("metadata of a validated manifest written the usual way", () => {
  const manifest = { dataset: "d", tasks: [{ id: "a", metadata: { b: "x y", c: ["é", null] } }, { id: "b" }] };
  test("found without a scan when the text compacts to JSON.stringify of it", () => {
    expect(metadataTexts(JSON.stringify(manifest, null, 2), manifest)).toEqual(['{"b":"x y","c":["é",null]}', undefined]);
  });

  for (const [what, text] of [
    ["an escape", JSON.stringify(manifest).replace("é", "\\u00e9")],
    ["a slash escape", JSON.stringify(manifest).replace('"x y"', '"x\\/y"')],
    ["a repeated key", JSON.stringify(manifest).replace('{"b":"x y"', '{"b":"zz","b":"x y"')],
  ] as const) {
    test(`${what}: the text as written, found by the scan`, () => {
      const parsed = JSON.parse(text);
      expect(metadataTexts(text, parsed)).toEqual(metadataTexts(text));
      expect(metadataTexts(text, parsed)[0]).not.toBe(JSON.stringify(parsed.tasks[0]?.metadata));
    });
  }
});

describe("metadata of a manifest the single-pass checker accepted", () => {
  const demo = readFileSync(join(import.meta.dir, "../../datasets/demo/manifest.json"), "utf8");
  const firstType = demo.indexOf('"type": ');
  // Inside the first task's vulnerability type, a string of its metadata.
  const issue = firstType + '"type": "'.length;
  const at = (index: number, insert: string, text = demo) => `${text.slice(0, index)}${insert}${text.slice(index)}`;
  for (const [what, text] of [
    ["as written by `dataset manifest`", demo],
    ["an escape JSON.stringify does not write", at(issue, "\\u00e9")],
    ["a control character escaped as JSON.stringify escapes it", at(issue, "\\u0001\\n\\t")],
    ["an upper-case escape", at(issue, "\\u001F")],
    ["an escaped quote followed by a colon", at(issue, 'say \\": this')],
    ["a repeated key", at(firstType, '"type": "zz", ')],
    ["a repeated key and a string starting with a colon", at(firstType, '"type": "zz", ', at(issue, ":"))],
    ["a space before a colon", demo.replace('"type": ', '"type" : ')],
  ] as const) {
    test(`${what}: the text as written`, async () => {
      const parsed = await parseManifest(text, "manifest.json", { asWritten: true });
      expect(metadataTexts(text, parsed)).toEqual(metadataTexts(text));
    });
  }
});
