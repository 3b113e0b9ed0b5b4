/**
 * Reads a YAML file the way the reference's PyYAML `safe_load` sees it (YAML 1.1: `yes/no/on/off`
 * are booleans, `none` is a string, all-digit scalars are ints), and turns every way it can fail
 * into one line of text: not a regular file, not UTF-8, special characters, syntax errors (with
 * line and column), several documents.
 */
import { readFileSync, statSync } from "node:fs";
import { type Tags, parseDocument } from "yaml";
import { describeCause } from "../errors.ts";

export type YamlResult = { ok: true; data: unknown } | { ok: false; cause: string };

// PyYAML's bool resolver; the yaml package's 1.1 schema also takes y/Y/n/N, PyYAML does not.
const PY_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PY_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

function pyyamlTags(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== "object" || tag.tag !== "tag:yaml.org,2002:bool" || !("test" in tag) || !tag.test) return tag;
    return { ...tag, test: tag.test.test("yes") ? PY_TRUE : PY_FALSE };
  });
}

// YAML's printable set (PyYAML rejects anything else in the stream).
const NON_PRINTABLE = /[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split("\n");
  return `line ${before.length}, column ${(before.at(-1) as string).length + 1}`;
}

/** Parses YAML text (no I/O). */
export function parseYamlText(text: string): YamlResult {
  const bad = NON_PRINTABLE.exec(text);
  if (bad) {
    const code = (bad[0].codePointAt(0) as number).toString(16).padStart(4, "0");
    return { ok: false, cause: `unacceptable character #x${code}: special characters are not allowed at ${lineColumn(text, bad.index)}` };
  }
  const doc = parseDocument(text, { version: "1.1", uniqueKeys: false, customTags: pyyamlTags, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const first = (error.message.split("\n")[0] as string).replace(/:$/, "");
    // The yaml package's text here names its own API; say what PyYAML says.
    return { ok: false, cause: error.code === "MULTIPLE_DOCS" ? first.replace(/^.*? at line/, "expected a single document in the stream at line") : first };
  }
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount: 1000 }) };
  } catch (cause) {
    return { ok: false, cause: describeCause(cause) };
  }
}

/** Reads and parses a YAML file that is known to exist. */
export function readYamlFile(path: string): YamlResult {
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) return { ok: false, cause: "not a regular file" };
    bytes = readFileSync(path);
  } catch (error) {
    return { ok: false, cause: describeCause(error) };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, cause: "not UTF-8 text" };
  }
  return parseYamlText(text);
}
