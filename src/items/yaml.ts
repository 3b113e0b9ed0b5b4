/**
 * YAML the way the reference reads it: PyYAML `safe_load`, i.e. YAML 1.1 scalars with PyYAML's own
 * regexes (`08` stays a string, `y`/`n` stay strings, `1e5` is a string, `010` is octal 8, `1:20`
 * is 80), timestamps rendered as Python's str() of the date/datetime. Every parse keeps the
 * document so that errors can name line and column.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { Tags } from "yaml";
import { UserError } from "../errors.ts";
import { noConstructorMessage, unknownTag } from "../formats/compat/yaml-tags.ts";
import { fromYamlJs } from "./py-values.ts";

export type PathSeg = string | number;

const pyTrue = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const pyFalse = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;
const pyDecimal = /^[-+]?(?:0|[1-9][0-9_]*)$/;
const pyFloat = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)$/;
const pyFloatExp = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9_]+)[eE][-+][0-9]+$/;
const pyTimestamp =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?)?$/;

const two = (s: string) => s.padStart(2, "0");

/** Python's str() of the date or datetime PyYAML builds for a timestamp scalar. */
function pythonTimestamp(text: string): string {
  const m = pyTimestamp.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const date = `${y}-${two(mo ?? "")}-${two(d ?? "")}`;
  if (h === undefined) return date;
  let out = `${date} ${two(h)}:${mi}:${s}`;
  if (frac && Number(frac) !== 0) out += `.${frac.slice(0, 6).padEnd(6, "0")}`;
  if (tz === "Z") out += "+00:00";
  else if (tz) {
    const [, sign, hh, mm] = /^([-+])([0-9]{1,2}):?([0-9]{2})?$/.exec(tz) ?? [];
    out += `${sign}${two(hh ?? "0")}:${mm ?? "00"}`;
  }
  return out;
}

function pyyamlTags(tags: Tags): Tags {
  return tags.map((t) => {
    if (typeof t !== "object" || !("test" in t) || !t.test) return t;
    const source = t.test.source;
    if (t.tag === "tag:yaml.org,2002:bool") return { ...t, test: t.identify?.(true) ? pyTrue : pyFalse };
    if (t.tag === "tag:yaml.org,2002:int" && source === "^[-+]?[0-9][0-9_]*$") return { ...t, test: pyDecimal };
    if (t.tag === "tag:yaml.org,2002:float" && !("format" in t && t.format === "TIME")) {
      if (source.includes("[eE]")) return { ...t, test: pyFloatExp };
      if (source.includes("inf")) return t;
      return { ...t, test: pyFloat };
    }
    if (t.tag === "tag:yaml.org,2002:timestamp") {
      return { ...t, identify: () => false, test: pyTimestamp, resolve: (str: string) => pythonTimestamp(str) };
    }
    return t;
  }) as Tags;
}

export interface YamlFile {
  /** The file as the user named it (what messages print). */
  file: string;
  value: unknown;
  /** `file:line:col` of the node at path (the nearest existing ancestor when it is missing). */
  at(path: readonly PathSeg[], key?: boolean): string;
}

/** The node at path: for the last segment, key=true gives the key's node instead of the value's. */
function nodeAt(doc: Document, path: readonly PathSeg[], key: boolean): Node | undefined {
  let node: unknown = doc.contents;
  let found: Node | undefined = (node as Node) ?? undefined;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    let next: unknown;
    let keyNode: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
      next = pair?.value;
      keyNode = pair?.key;
    } else if (isSeq(node) && typeof seg === "number") {
      next = node.items[seg];
    } else return found;
    if (key && i === path.length - 1 && keyNode) return keyNode as Node;
    if (!next) return found;
    node = next;
    found = next as Node;
  }
  return found;
}

/** Parses YAML text; a syntax error is one UserError line `file:line:col: YAML: what`. */
export function parseYaml(file: string, text: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    version: "1.1",
    lineCounter,
    customTags: pyyamlTags,
    merge: true,
    prettyErrors: false,
    // Ints as bigint, so that floats (numbers) can be told apart: fromYamlJs() makes both Python-like.
    intAsBigInt: true,
  });
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const first = doc.errors[0];
  if (first) {
    const message = first.message.split("\n")[0]?.replace(/ at line \d+, column \d+.*$/, "");
    throw new UserError(`${position(first.pos[0])}: YAML: ${message}`);
  }
  const tag = unknownTag(doc, text);
  if (tag) throw new UserError(`${position(tag.offset)}: YAML: ${noConstructorMessage(tag.tag)}`);
  let value: unknown;
  try {
    value = fromYamlJs(doc.toJS({ maxAliasCount: 1000, mapAsMap: true }));
  } catch (cause) {
    throw new UserError(`${file}:1:1: YAML: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return {
    file,
    value,
    at(path, key = false) {
      const node = nodeAt(doc, path, key);
      return position(node?.range?.[0] ?? 0);
    },
  };
}
