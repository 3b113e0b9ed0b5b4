import { describe, expect, test } from "bun:test";
import { metadataTexts } from "../../src/catalog/raw-metadata.ts";
import { compactJson as compact } from "../../src/formats/json-scan.ts";

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
