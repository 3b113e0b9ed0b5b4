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
