/**
 * Python's `str.strip()` applied to every string of a parsed document, the way the reference
 * models (`str_strip_whitespace=True`) see their input. arktype has no "trim, then check the
 * pattern" that survives JSON Schema export (a morph cannot be exported), so this runs before the
 * model; the exported schema, like the reference's, checks the unstripped text.
 */
// Python's whitespace set differs from JS trim(): it includes \x1c-\x1f and \x85 but not \ufeff.
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");

export function pythonStrip(text: string): string {
  return text.replace(EDGES, "");
}

export function stripStrings(value: unknown): unknown {
  if (typeof value === "string") return pythonStrip(value);
  if (Array.isArray(value)) return value.map(stripStrings);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    // fromEntries defines own properties, so a "__proto__" key stays data.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stripStrings(item)]));
  }
  return value;
}
