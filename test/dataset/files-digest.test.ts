import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalFilesJson, filesDigest } from "../../src/dataset/files-digest.ts";
import { compareCodePoints, sortByCodePoint } from "../../src/formats/compat/python-json.ts";

// Vectors computed with CPython 3.11's json.dumps(sort_keys=True, separators=(",", ":")).
const escapeHeavy: Record<string, string> = {
  "sse/\u00e9t\u00e9.txt": "a",
  "\u{1F600}/x": "b",
  "\ue000/y": "c",
  'quote"back\\slash': "d",
  "ctl\n\r\t\b\f\u0001\u007f": "e",
  Z: "f",
  a: "g",
  "caf\u00e9\u2028": "h",
};

describe("filesDigest", () => {
  test("empty map matches the Go vector", () => {
    expect(filesDigest({})).toBe("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  });

  test("escape-heavy map serialises like Python's ensure_ascii encoder", () => {
    expect(canonicalFilesJson(escapeHeavy)).toBe(
      String.raw`{"Z":"f","a":"g","caf\u00e9\u2028":"h","ctl\n\r\t\b\f\u0001\u007f":"e","quote\"back\\slash":"d","sse/\u00e9t\u00e9.txt":"a","\ue000/y":"c","\ud83d\ude00/x":"b"}`,
    );
    expect(filesDigest(escapeHeavy)).toBe("7904f95520ab3aaa62a7dea88597d02064e8f3995bab95de9ec135fd32ce7c1b");
  });

  test("maps already in order and plain ASCII (JSON.stringify's text) give Python's text too", () => {
    expect(canonicalFilesJson({ "1": "x", "2": "y", 'a"\\\n\u0001': "z" })).toBe(String.raw`{"1":"x","2":"y","a\"\\\n\u0001":"z"}`);
    expect(canonicalFilesJson({ "9": "a", "10": "b", a: "c" })).toBe(`{"10":"b","9":"a","a":"c"}`);
    expect(canonicalFilesJson({ a: "x\u007f", b: "\u00e9" })).toBe(String.raw`{"a":"x\u007f","b":"\u00e9"}`);
    // A lone surrogate: JSON.stringify escapes it as Python does.
    expect(canonicalFilesJson({ a: "\ud800", b: "x\u007f" })).toBe(String.raw`{"a":"\ud800","b":"x\u007f"}`);
  });

  test("keys sort by code point, not by UTF-16 unit", () => {
    expect(sortByCodePoint(["\u{1F600}", "\ue000", "b", "B", "a/b", "a"])).toEqual(["B", "a", "a/b", "b", "\ue000", "\u{1F600}"]);
    expect(compareCodePoints("abc", "abc")).toBe(0);
    expect(compareCodePoints("ab", "abc")).toBeLessThan(0);
  });

  const pilot = join(import.meta.dir, "../../../shared/conformance/pilot");
  test.skipIf(!existsSync(pilot))("matches files_sha256 of 54 of the 55 pilot lock entries", () => {
    const manifest = JSON.parse(readFileSync(join(pilot, "manifest.json"), "utf8"));
    const lock = JSON.parse(readFileSync(join(pilot, "images.lock.json"), "utf8"));
    const mismatched = manifest.tasks
      .filter((t: { id: string; files: Record<string, string> }) => lock.images[t.id]?.files_sha256 !== filesDigest(t.files))
      .map((t: { id: string }) => t.id);
    expect(mismatched).toEqual(["generic-c-libxml2-xml_commit_0bcd05c"]);
  });
});
