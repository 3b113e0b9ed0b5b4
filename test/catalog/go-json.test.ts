import { expect, test } from "bun:test";
import { goJson, OrderedMap, RawJson } from "../../src/catalog/go-json.ts";

test("compact, newline-terminated, HTML characters kept, U+2028/U+2029 escaped like Go", () => {
  expect(goJson({ a: "<b> & 'c'", b: "x\u2028y\u2029z", c: [1, null, true], d: "\b\f\n\r\t\u0001\u007f é 😀" })).toBe(
    '{"a":"<b> & \'c\'","b":"x\\u2028y\\u2029z","c":[1,null,true],"d":"\\b\\f\\n\\r\\t\\u0001\u007f é 😀"}\n',
  );
});

test("OrderedMap keeps the given key order, integer-like keys included; undefined fields are left out", () => {
  expect(goJson({ files: new OrderedMap([["b", "1"], ["10", "2"]]), gone: undefined })).toBe('{"files":{"b":"1","10":"2"}}\n');
  expect(JSON.stringify(new OrderedMap([["k", "v"]]))).toBe('{"k":"v"}');
});

test("RawJson (Go's json.RawMessage) is compacted without re-escaping U+2028/U+2029", () => {
  expect(goJson({ a: "x\u2028", m: new RawJson({ b: "y\u2028z\u2029", c: null }) })).toBe('{"a":"x\\u2028","m":{"b":"y\u2028z\u2029","c":null}}\n');
  expect(JSON.stringify(new RawJson({ k: 1 }))).toBe('{"k":1}');
});

test("a map already in order is encoded natively, with the same bytes (U+2028 escaped, integer-like keys in place)", () => {
  const files = { "1": "a", "2": "b", "src/x\u2028.c": "c" };
  const native = OrderedMap.ofOrderedObject(files);
  expect(goJson({ files: native })).toBe(goJson({ files: new OrderedMap(Object.entries(files)) }));
  expect(goJson({ files: native })).toBe('{"files":{"1":"a","2":"b","src/x\\u2028.c":"c"}}\n');
  expect(native.entries).toEqual(Object.entries(files));
});
