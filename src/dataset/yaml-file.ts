/**
 * Reads a YAML file the way the reference's PyYAML `safe_load` sees it (YAML 1.1: `yes/no/on/off`
 * are booleans, `none` is a string, all-digit scalars are ints), and turns every way it can fail
 * into one line of text: not a regular file, not UTF-8, special characters, syntax errors (with
 * line and column), several documents.
 */
import { readFileSync, statSync } from "node:fs";
import { type Document, type Tags, isAlias, isCollection, isPair, isScalar, isSeq, parseDocument, visit } from "yaml";
import { describeCause } from "../errors.ts";
import { keepOrder } from "../formats/compat/key-order.ts";
import type { NonStringKey } from "../formats/schema/model-errors.ts";
import { noConstructorMessage, unknownTag } from "../formats/compat/yaml-tags.ts";

export type YamlResult = { ok: true; data: unknown; nonStringKeys?: NonStringKey[] } | { ok: false; cause: string };

// PyYAML's bool resolver; the yaml package's 1.1 schema also takes y/Y/n/N, PyYAML does not.
const PY_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PY_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

// PyYAML's int, float and timestamp resolvers, which are narrower than the yaml package's 1.1
// ones: `1e5`, `09`, `+.5`, `0:30` and `2001-1-1` are strings to PyYAML (a dataset version
// `2024-1-1` is valid there). Keyed by the yaml package's own pattern for the same tag.
const PY_NARROWER: Record<string, RegExp> = {
  "^[-+]?[0-9][0-9_]*$": /^[-+]?(?:0|[1-9][0-9_]*)$/,
  "^[-+]?(?:[0-9][0-9_]*)?(?:\\.[0-9_]*)?[eE][-+]?[0-9]+$": /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)[eE][-+][0-9]+$/,
  "^[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*$": /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/,
  "^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$": /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/,
};
const PY_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

function pyyamlTags(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== "object" || !("test" in tag) || !tag.test) return tag;
    if (tag.tag === "tag:yaml.org,2002:bool") return { ...tag, test: tag.test.test("yes") ? PY_TRUE : PY_FALSE };
    if (tag.tag === "tag:yaml.org,2002:timestamp") return { ...tag, test: PY_TIMESTAMP };
    const narrower = PY_NARROWER[tag.test.source];
    return narrower ? { ...tag, test: narrower } : tag;
  });
}

// YAML's printable set (PyYAML rejects anything else in the stream).
const NON_PRINTABLE = /[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split("\n");
  return `line ${before.length}, column ${(before.at(-1) as string).length + 1}`;
}

// PyYAML's implicit resolvers (YAML 1.1): a plain scalar matching one of these is not a string.
const PY_RESOLVED = new RegExp(
  [
    "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
    "^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$",
    "^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
    "^(?:~|null|Null|NULL|<<|=)$",
    "^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?",
  ].join("|"),
);
// Documents the fast path leaves to the full parser: several documents, directives, tags,
// merge keys, tabs in indentation (Bun accepts them, PyYAML does not), and anchors with aliases
// (the full parser caps alias expansion).
const NOT_PLAIN = /^(?:---|\.\.\.|%| *\t)|!|<</m;
// Possible complex keys (`? [a]`, `[a]: x`, `{[a]: x}`): Bun turns a list key into a string,
// PyYAML refuses it, so such documents go to the full parser.
const COMPLEX_KEY = /^[ \t-]*[?[{]|[[{,][ \t]*[[{]/m;

/** True when every scalar and key is a string that YAML 1.1 would also read as a string. */
function sameUnderYaml11(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === "string") return !PY_RESOLVED.test(value);
  if (Array.isArray(value)) return value.every(sameUnderYaml11);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).every(([k, v]) => !PY_RESOLVED.test(k) && sameUnderYaml11(v));
  }
  return false;
}

/**
 * Bun's native YAML parser (YAML 1.2, ~50× faster) when its result provably equals the 1.1
 * reading: no numbers or booleans, no string that a 1.1 resolver would turn into something else.
 * Anything else — including every syntax error, for the full parser's message — returns undefined.
 */
function fastParse(text: string): { data: unknown } | undefined {
  if (NOT_PLAIN.test(text) || COMPLEX_KEY.test(text) || (text.includes("&") && text.includes("*"))) return undefined;
  try {
    const data: unknown = Bun.YAML.parse(text);
    return sameUnderYaml11(data) ? { data: data ?? null } : undefined;
  } catch {
    return undefined;
  }
}

/** Parses YAML text (no I/O). */
export function parseYamlText(text: string): YamlResult {
  const fast = fastParse(text);
  if (fast && !NON_PRINTABLE.test(text)) return { ok: true, data: fast.data };
  return parseYamlTextFully(text);
}

/** Where a mapping has a list or mapping as a key (PyYAML: "found unhashable key"), if anywhere. */
function unhashableKeyOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Pair(_, pair) {
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      if (!isCollection(key)) return undefined;
      offset = key.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

/**
 * A non-string key as pydantic's location shows it: an int (a bool counts as one: `yes` is 1) stays
 * a number (`[1]`), anything else is its str() or, for a date, its repr().
 */
function pythonKey(value: unknown, source: string): number | string {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (value === null) return "None";
  if (value instanceof Date && /^\d{4}-\d{2}-\d{2}$/.test(source)) {
    return `datetime.date(${value.getUTCFullYear()}, ${value.getUTCMonth() + 1}, ${value.getUTCDate()})`;
  }
  return typeof value === "number" ? String(value) : source;
}

/** The property name toJS() gives a scalar key (a null key becomes ""). */
const jsKey = (value: unknown) => (value === null ? "" : String(value));

/** The path in toJS()'s value of the node below `ancestors` (`self`). */
function jsPath(ancestors: readonly unknown[], self: unknown): string[] {
  const path: string[] = [];
  ancestors.forEach((node, i) => {
    const next = ancestors[i + 1] ?? self;
    if (isPair(node) && isScalar(node.key)) path.push(jsKey(node.key.value));
    else if (isSeq(node)) path.push(String(node.items.indexOf(next as never)));
  });
  return path;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const step of path) node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[step] : undefined;
  return node;
}

/**
 * Every mapping key that PyYAML would build as something other than a string; and, on the way,
 * the key order as written of each mapping of `data` whose order JS changes (integer-like keys).
 */
function nonStringKeys(doc: Document, data: unknown): NonStringKey[] {
  const found: { path: string[]; key: number | string }[] = [];
  visit(doc, {
    Map(_, map, ancestors) {
      const target = valueAt(data, jsPath(ancestors, map));
      if (target !== null && typeof target === "object" && !Array.isArray(target)) {
        keepOrder(target, map.items.map((pair) => jsKey(isScalar(pair.key) ? pair.key.value : pair.key)), true);
      }
      return undefined;
    },
    Pair(_, pair, ancestors) {
      if (!isScalar(pair.key) || typeof pair.key.value === "string") return undefined;
      const path = [...jsPath(ancestors, pair), jsKey(pair.key.value)];
      found.push({ path, key: pythonKey(pair.key.value, pair.key.source ?? String(pair.key.value)) });
      return undefined;
    },
  });
  return found;
}

/** The full YAML 1.1 parse, PyYAML's resolvers (exported for the differential test). */
export function parseYamlTextFully(text: string): YamlResult {
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
  const tag = unknownTag(doc, text);
  if (tag) return { ok: false, cause: `${noConstructorMessage(tag.tag)} at ${lineColumn(text, tag.offset)}` };
  const unhashable = unhashableKeyOffset(doc);
  if (unhashable !== undefined) return { ok: false, cause: `found unhashable key at ${lineColumn(text, unhashable)}` };
  try {
    const data: unknown = doc.toJS({ maxAliasCount: 1000 });
    const keys = nonStringKeys(doc, data);
    return keys.length > 0 ? { ok: true, data, nonStringKeys: keys } : { ok: true, data };
  } catch (cause) {
    return { ok: false, cause: describeCause(cause) };
  }
}

/** Reads and parses a YAML file that is known to exist (`knownFile`: and to be a regular file). */
export function readYamlFile(path: string, opts: { knownFile?: boolean } = {}): YamlResult {
  let bytes: Buffer;
  try {
    if (!opts.knownFile && !statSync(path).isFile()) return { ok: false, cause: "not a regular file" };
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
