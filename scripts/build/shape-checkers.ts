/**
 * Generates a single-pass checker from a format's exported JSON Schema (the arktype model's): one
 * function that answers what `!hasStrippableString(doc) && ajvValidate(doc)` answers (check.ts),
 * walking the document once, with no error objects (ajv builds one for every failed `anyOf`
 * branch, so each `null` of a nullable field cost an allocation: most of a 10,000-task manifest's
 * check). It may refuse more than ajv (the caller then asks the model), never less. A keyword it
 * does not know makes it give up on that format (undefined), which then keeps the ajv checker.
 *
 * Used by scripts/build/compile-validators.ts.
 */
import { MODEL_SPACE_CODES } from "../../src/formats/compat/strip.ts";

type Node = { [key: string]: unknown };

const IGNORED = new Set(["title", "description", "default", "$schema", "$defs"]);
const HANDLED = new Set(["type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "pattern", "minLength", "maxLength", "minItems", "$ref"]);
const SCALARS = new Set(["string", "null", "boolean"]);

class Unsupported extends Error {}

class Generator {
  readonly functions: string[] = [];
  readonly constants: string[] = [];
  private readonly defs = new Map<string, { fn: string; covers: boolean }>();
  private n = 0;
  /** inside an anyOf branch: objects there are walked again, so their keys are not counted */
  private inBranch = 0;

  constructor(private readonly root: Node) {}

  private id(prefix: string): string {
    return `${prefix}${this.n++}`;
  }

  private constant(prefix: string, expression: string): string {
    const name = this.id(prefix);
    this.constants.push(`const ${name} = ${expression};`);
    return name;
  }

  /** A function `name(v)` returning true when v passes `node`; whether it also checks every string in v. */
  fn(node: Node, prefix = "c"): { fn: string; covers: boolean } {
    const name = this.id(prefix);
    const { code, covers } = this.check(node, "v");
    this.functions.push(`function ${name}(v) {\n${code}\n  return true;\n}`);
    return { fn: name, covers };
  }

  private ref(ref: string): { fn: string; covers: boolean } {
    const name = ref.replace("#/$defs/", "");
    const node = (this.root.$defs as Record<string, Node> | undefined)?.[name];
    if (!ref.startsWith("#/$defs/") || !node) throw new Unsupported(`$ref ${ref}`);
    // A definition is generated once, counting keys; used in a branch it would count them twice.
    if (this.inBranch > 0) throw new Unsupported(`$ref ${ref} in an anyOf branch`);
    let known = this.defs.get(name);
    if (!known) {
      // Reserve the name first: a recursive definition refers to itself.
      const fn = this.id(`d_${name.replace(/\W/g, "_")}_`);
      this.defs.set(name, { fn, covers: false });
      const { code, covers } = this.check(node, "v");
      this.functions.push(`function ${fn}(v) {\n${code}\n  return true;\n}`);
      known = { fn, covers };
      this.defs.set(name, known);
    }
    return known;
  }

  /** Statements that `return false` unless v passes `node`; `mustCover`: add a walk for strings the schema does not reach. */
  check(node: Node, v: string, mustCover = false): { code: string; covers: boolean } {
    for (const key of Object.keys(node)) if (!HANDLED.has(key) && !IGNORED.has(key)) throw new Unsupported(key);
    const out: string[] = [];
    let covers = false;
    const type = node.type;
    if (type !== undefined && typeof type !== "string") throw new Unsupported("type list");
    if (type === "string") out.push(`if (typeof ${v} !== "string" || edge(${v})) return false;`);
    else if (type === "null") out.push(`if (${v} !== null) return false;`);
    else if (type === "boolean") out.push(`if (typeof ${v} !== "boolean") return false;`);
    else if (type === "array") out.push(`if (!Array.isArray(${v})) return false;`);
    else if (type === "object") out.push(`if (${v} === null || typeof ${v} !== "object" || Array.isArray(${v})) return false;`);
    else if (type !== undefined) throw new Unsupported(`type ${type}`);
    if (type !== undefined && SCALARS.has(type)) covers = true;
    const when = (kind: string, test: string, code: string[]) => {
      if (code.length === 0) return;
      out.push(type === kind ? code.join("\n") : `if (${test}) {\n${code.join("\n")}\n}`);
    };
    if (node.enum !== undefined) {
      // An enum applies whatever the type (strict equality is ajv's equal() for these values).
      const values = node.enum as unknown[];
      if (!values.every((e) => typeof e === "string" || e === null)) throw new Unsupported("enum");
      out.push(`if (${values.map((e) => `${v} !== ${JSON.stringify(e)}`).join(" && ")}) return false;`);
    }
    when("string", `typeof ${v} === "string"`, this.stringKeywords(node, v));
    const array = this.arrayKeywords(node, v);
    when("array", `Array.isArray(${v})`, array.code);
    if (type === "array" && array.covers) covers = true;
    const object = this.objectKeywords(node, v);
    when("object", `${v} !== null && typeof ${v} === "object" && !Array.isArray(${v})`, object.code);
    if (type === "object" && object.covers) covers = true;
    if (node.$ref !== undefined) {
      const { fn, covers: refCovers } = this.ref(String(node.$ref));
      out.push(`if (!${fn}(${v})) return false;`);
      covers ||= refCovers;
    }
    if (node.anyOf !== undefined) {
      const any = this.anyOf(node.anyOf as Node[], v);
      out.push(any.code);
      covers ||= any.covers;
    }
    if (mustCover && !covers) {
      out.push(`if (strippable(${v})) return false;`);
      covers = true;
    }
    return { code: out.join("\n"), covers };
  }

  private stringKeywords(node: Node, v: string): string[] {
    const code: string[] = [];
    if (typeof node.minLength === "number") {
      const min = node.minLength;
      // Lengths count code points, as ajv's: a string of fewer units has fewer code points.
      code.push(`if (${v}.length < ${min} || (${v}.length < ${2 * min} && codePoints(${v}) < ${min})) return false;`);
    }
    if (typeof node.maxLength === "number") code.push(`if (${v}.length > ${node.maxLength} && codePoints(${v}) > ${node.maxLength}) return false;`);
    if (typeof node.pattern === "string") {
      // Compiled as ajv compiles them here (unicodeRegExp: false).
      const re = this.constant("re", `new RegExp(${JSON.stringify(node.pattern)}, "")`);
      code.push(`if (!${re}.test(${v})) return false;`);
    }
    return code;
  }

  private arrayKeywords(node: Node, v: string): { code: string[]; covers: boolean } {
    const code: string[] = [];
    if (typeof node.minItems === "number") code.push(`if (${v}.length < ${node.minItems}) return false;`);
    if (node.items === undefined) return { code, covers: false };
    if (typeof node.items !== "object" || node.items === null) throw new Unsupported("items");
    const x = this.id("x");
    const item = this.check(node.items as Node, x, true);
    code.push(`for (let i = 0; i < ${v}.length; i++) {\nconst ${x} = ${v}[i];\n${item.code}\n}`);
    return { code, covers: true };
  }

  private objectKeywords(node: Node, v: string): { code: string[]; covers: boolean } {
    const code: string[] = [];
    const props = (node.properties ?? {}) as Record<string, Node>;
    const names = Object.keys(props);
    for (const name of (node.required ?? []) as string[]) code.push(`if (${v}[${JSON.stringify(name)}] === undefined) return false;`);
    const extra = node.additionalProperties;
    if (node.properties === undefined && extra === undefined && node.required === undefined) return { code, covers: false };
    const k = this.id("k");
    // Declared names carry no edge space, so only other keys need the key check.
    const declared = names.filter((name) => !/^\s|\s$/.test(name));
    if (declared.length !== names.length) throw new Unsupported("property name with edge space");
    let other: string;
    if (extra === false) other = "return false;";
    else if (extra === undefined || extra === true) other = `if (edge(${k}) || strippable(${v}[${k}])) return false;`;
    else {
      const x = this.id("x");
      const value = this.check(extra as Node, x, true);
      other = `if (edge(${k})) return false;\nconst ${x} = ${v}[${k}];\n${value.code}`;
    }
    const cases = names.map((name) => `case ${JSON.stringify(name)}:`).join(" ");
    const dispatch = names.length > 0 ? `switch (${k}) {\n${cases} break;\ndefault: {\n${other}\n}\n}` : other;
    code.push(`for (const ${k} in ${v}) {\n${this.inBranch > 0 ? "" : "KEYS++;\n"}${dispatch}\n}`);
    for (const name of names) {
      const x = this.id("x");
      const value = this.check(props[name] as Node, x, true);
      code.push(`{\nconst ${x} = ${v}[${JSON.stringify(name)}];\nif (${x} !== undefined) {\n${value.code}\n}\n}`);
    }
    // Every key is visited (the loop), every value checked by a property or the extra schema.
    return { code, covers: node.properties !== undefined || extra !== undefined };
  }

  private anyOf(alternatives: Node[], v: string): { code: string; covers: boolean } {
    const nullable = alternatives.length === 2 && alternatives.some((a) => a.type === "null" && Object.keys(a).length === 1);
    if (nullable) {
      const other = alternatives.find((a) => !(a.type === "null" && Object.keys(a).length === 1)) as Node;
      const inner = this.check(other, v);
      return { code: `if (${v} !== null) {\n${inner.code}\n}`, covers: inner.covers };
    }
    this.inBranch++;
    const fns = alternatives.map((alt) => this.fn(alt, "a"));
    this.inBranch--;
    return { code: `if (!(${fns.map((f) => `${f.fn}(${v})`).join(" || ")})) return false;`, covers: fns.every((f) => f.covers) };
  }
}

const PRELUDE = (spaces: number[]) => `const SPACE = new Uint8Array(0x3001);
for (const c of ${JSON.stringify(spaces)}) SPACE[c] = 1;
const isSpace = (u) => (u <= 0x20 || u >= 0x85) && u <= 0x3000 && SPACE[u] === 1;
const edge = (s) => s.length > 0 && (isSpace(s.charCodeAt(0)) || isSpace(s.charCodeAt(s.length - 1)));
function strippable(value) {
  if (typeof value === "string") return edge(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const item of value) if (strippable(item)) return true;
    return false;
  }
  for (const key in value) if (edge(key) || strippable(value[key])) return true;
  return false;
}
function codePoints(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    n++;
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}`;

/**
 * The checker, which also counts the keys of the objects it walks (each object once), for the
 * catalog's metadata-form check (raw-metadata.ts): `keysWalked(doc)` gives that count once, if the
 * last document accepted was `doc`.
 */
const COUNTED = (fn: string) => `let KEYS = 0;
let last;
const check = (v) => {
  KEYS = 0;
  last = undefined;
  const ok = ${fn}(v);
  if (ok && v !== null && typeof v === "object") last = { doc: new WeakRef(v), keys: KEYS };
  return ok;
};
check.keysWalked = (v) => {
  const seen = last;
  last = undefined;
  return seen !== undefined && seen.doc.deref() === v ? seen.keys : undefined;
};
return check;`;

/** The generated module text for these formats' schemas: `shapeCheckers` by name (formats it cannot generate are left out). */
export function shapeCheckersSource(schemas: Record<string, Node>): string {
  const parts: string[] = [];
  const table: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const gen = new Generator(schema);
    try {
      const { fn } = gen.fn(schema, `s_${name.replace(/\W/g, "_")}_`);
      // Each format in its own block scope, so its helper names cannot clash with another's.
      parts.push(`const shape_${name.replace(/\W/g, "_")} = (() => {\n${gen.constants.join("\n")}\n${gen.functions.join("\n")}\n${COUNTED(fn)}\n})();`);
      table.push(`  ${JSON.stringify(name)}: shape_${name.replace(/\W/g, "_")},`);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
    }
  }
  return `${PRELUDE([...MODEL_SPACE_CODES])}\n${parts.join("\n")}\nexport const shapeCheckers = {\n${table.join("\n")}\n};\n`;
}
