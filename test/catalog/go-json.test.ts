import { expect, test } from "bun:test";
import { goJson, OrderedMap } from "../../src/catalog/go-json.ts";

test("compact, newline-terminated, HTML characters kept, U+2028/U+2029 escaped like Go", () => {
  expect(goJson({ a: "<b> & 'c'", b: "x\u2028y\u2029z", c: [1, null, true], d: "\b\f\n\r\t\u0001\u007f é 😀" })).toBe(
    '{"a":"<b> & \'c\'","b":"x\\u2028y\\u2029z","c":[1,null,true],"d":"\\b\\f\\n\\r\\t\\u0001\u007f é 😀"}\n',
  );
});

test("OrderedMap keeps the given key order, integer-like keys included; undefined fields are left out", () => {
  expect(goJson({ files: new OrderedMap([["b", "1"], ["10", "2"]]), gone: undefined })).toBe('{"files":{"b":"1","10":"2"}}\n');
  expect(JSON.stringify(new OrderedMap([["k", "v"]]))).toBe('{"k":"v"}');
});
