/**
 * A dataset document against the item-dataset JSON Schema (ajv, draft-07, all errors), each
 * violation one line `file:line:col: [item <id>: ]<path>: <what>`. ajv reports every failed
 * branch of a oneOf; for each outermost failed oneOf/anyOf this keeps only the most telling
 * errors: the deepest ones, preferring a constraint over a mere type mismatch.
 */
import type { ErrorObject } from "ajv";
import { itemId } from "./item.ts";
import { isMapping, pyRepr } from "./python.ts";
import { itemDatasetSchema } from "./schema/documents.ts";
import type { PathSeg, YamlFile } from "./yaml.ts";
import { toPlain } from "./py-values.ts";

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

interface Described {
  text: string;
  /** A property named by the error: appended to the path ("<path>.<key> is required"). */
  key?: string;
  /** Whether that key is written in the document (its position is the key's, else the parent's). */
  keyWritten?: boolean;
}

function describe(error: ErrorObject, siblings: ErrorObject[]): Described {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { text: "is required", key: String(p.missingProperty), keyWritten: false };
    case "additionalProperties":
      return { text: "is not a valid property", key: String(p.additionalProperty), keyWritten: true };
    case "const":
      return { text: `must be ${pyRepr(p.allowedValue)}` };
    case "enum":
      return { text: `must be one of ${(p.allowedValues as unknown[]).map((v) => pyRepr(v)).join(", ")}` };
    case "propertyNames":
      return {
        text: "is not a free-form part (use expectations.details[...] or inputs.tool_fixtures.by_tool.<tool>[...])",
        key: String(p.propertyName),
        keyWritten: true,
      };
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
    const deepest = Math.max(...group.map((e) => segments(e).length));
    const candidates = group.filter((e) => segments(e).length === deepest);
    const ambiguous = candidates.filter((e) => compound.has(e.keyword) && Array.isArray((e.params as Record<string, unknown>).passingSchemas));
    let constraints = candidates.filter((e) => e.keyword !== "type" && !compound.has(e.keyword));
    // The `{ref}` branch fails on almost any mapping; its complaints only matter when nothing else does.
    const notRef = constraints.filter((e) => !e.schemaPath.startsWith("#/definitions/ref/"));
    if (notRef.length > 0) constraints = notRef;
    if (ambiguous.length > 0) kept.push(...ambiguous);
    else if (constraints.length > 0) kept.push(...constraints);
    else kept.push(c);
  }
  return kept;
}

export async function schemaViolations(doc: YamlFile): Promise<string[]> {
  const { default: Ajv } = await import("ajv");
  // Our own schema needs no meta-validation (the export test compiles it with the defaults), and
  // unoptimised code compiles faster; together about 3x less compile time in a fresh process.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, code: { optimize: false } });
  const validate = ajv.compile(itemDatasetSchema);
  if (validate(toPlain(doc.value))) return [];
  // propertyNames reports the failed pattern as well; its own error says it better.
  const errors = (validate.errors ?? []).filter((e) => !e.schemaPath.includes("/propertyNames/"));
  const lines: { pos: number[]; line: string }[] = [];
  const seen = new Set<string>();
  for (const error of telling(errors)) {
    const path = segments(error);
    const siblings = errors.filter((e) => e.instancePath === error.instancePath);
    const { text, key, keyWritten } = describe(error, siblings);
    const full = key === undefined ? path : [...path, key];
    let item = "";
    if (full[0] === "spec" && full[1] === "items" && typeof full[2] === "number") {
      const raw = (doc.value as { spec: { items: unknown[] } }).spec.items[full[2]];
      if (isMapping(raw)) item = `item ${itemId(raw)}: `;
    }
    const where = keyWritten === false ? doc.at(path) : doc.at(full, key !== undefined);
    const line = `${where}: ${item}${dotted(full)}${key === undefined ? ":" : ""} ${text}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push({ pos: where.split(":").slice(-2).map(Number), line });
  }
  lines.sort((a, b) => (a.pos[0] ?? 0) - (b.pos[0] ?? 0) || (a.pos[1] ?? 0) - (b.pos[1] ?? 0));
  return lines.map((l) => l.line);
}
