/**
 * A dataset document against the item-dataset JSON Schema (ajv, draft-07, all errors), each
 * violation one line `file:line:col: [item <id>: ]<path>: <what>`. ajv reports every failed
 * branch of a oneOf; for each outermost failed oneOf/anyOf this keeps only the most telling
 * errors: the deepest ones, preferring a constraint over a mere type mismatch.
 */
import type { ErrorObject } from "ajv";
import { newAjv } from "./part-schemas.ts";
import { itemId } from "./item.ts";
import { isMapping, pyRepr } from "./python.ts";
import { itemDatasetSchema } from "./schema/documents.ts";
import type { PathSeg, YamlFile } from "./yaml.ts";

const compound = new Set(["oneOf", "anyOf"]);

function segments(error: ErrorObject): PathSeg[] {
  return error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function dotted(path: readonly PathSeg[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("") || "(root)";
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function describe(error: ErrorObject, siblings: ErrorObject[]): { text: string; key?: string } {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { text: `${p.missingProperty} is required` };
    case "additionalProperties":
      return { text: "is not a valid property", key: String(p.additionalProperty) };
    case "const":
      return { text: `must be ${pyRepr(p.allowedValue)}` };
    case "enum":
      return { text: `must be one of ${(p.allowedValues as unknown[]).map((v) => pyRepr(v)).join(", ")}` };
    case "propertyNames":
      return { text: `${pyRepr(p.propertyName)} is not a free-form part (expectations.details[...] or inputs.tool_fixtures.by_tool.<tool>[...])` };
    case "oneOf":
    case "anyOf": {
      if (Array.isArray(p.passingSchemas)) return { text: `is ambiguous: it matches more than one allowed shape (${error.keyword} branches ${p.passingSchemas.join(" and ")})` };
      const types = [...new Set(siblings.filter((e) => e.keyword === "type").map((e) => String((e.params as { type: string }).type)))];
      return { text: `does not match any allowed shape${types.length ? ` (expected ${types.join(" or ")})` : ""}` };
    }
    default:
      return { text: error.message ?? "is invalid" };
  }
}

/** Drops the branch noise of failed oneOf/anyOf, keeping the most specific errors. */
function telling(errors: ErrorObject[]): ErrorObject[] {
  const outer = errors.filter(
    (e) => compound.has(e.keyword) && !errors.some((o) => o !== e && compound.has(o.keyword) && under(e.instancePath, o.instancePath) && o.instancePath !== e.instancePath),
  );
  const kept = errors.filter((e) => !outer.some((c) => under(e.instancePath, c.instancePath)));
  for (const c of outer) {
    if (kept.some((k) => k.instancePath === c.instancePath && compound.has(k.keyword))) continue;
    const group = errors.filter((e) => under(e.instancePath, c.instancePath));
    const depth = (e: ErrorObject) => segments(e).length + (e.keyword === "additionalProperties" || e.keyword === "required" ? 1 : 0);
    const deepest = Math.max(...group.map(depth));
    const candidates = group.filter((e) => depth(e) === deepest);
    const constraints = candidates.filter((e) => e.keyword !== "type" && !compound.has(e.keyword));
    const ambiguous = candidates.filter((e) => compound.has(e.keyword) && Array.isArray((e.params as Record<string, unknown>).passingSchemas));
    if (ambiguous.length > 0) kept.push(...ambiguous);
    else if (constraints.length > 0 && deepest > segments(c).length) kept.push(...constraints);
    else kept.push(c);
  }
  return kept;
}

export async function schemaViolations(doc: YamlFile): Promise<string[]> {
  const ajv = await newAjv();
  const validate = ajv.compile(itemDatasetSchema);
  if (validate(doc.value)) return [];
  const errors = validate.errors ?? [];
  const lines: { path: PathSeg[]; line: string }[] = [];
  const seen = new Set<string>();
  for (const error of telling(errors)) {
    const path = segments(error);
    const siblings = errors.filter((e) => e.instancePath === error.instancePath);
    const { text, key } = describe(error, siblings);
    const full = key === undefined ? path : [...path, key];
    let item = "";
    if (full[0] === "spec" && full[1] === "items" && typeof full[2] === "number") {
      const raw = (doc.value as { spec: { items: unknown[] } }).spec.items[full[2]];
      if (isMapping(raw)) item = `item ${itemId(raw)}: `;
    }
    const line = `${doc.at(full, key !== undefined)}: ${item}${dotted(full)}: ${text}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push({ path: full, line });
  }
  return lines.map((l) => l.line);
}
