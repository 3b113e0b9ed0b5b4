/**
 * Compares the constraints of two JSON Schemas, ignoring prose and layout (titles, descriptions,
 * key order, whether a model sits in $defs): each schema is flattened into "path: keyword = value"
 * facts with $refs to $defs resolved (other $refs are facts), and the facts present on one side
 * only are reported. `dataset schema --check --ignore-descriptions` and the conformance suite use it.
 */
type Json = { [key: string]: unknown };
const PROSE = new Set(["title", "description", "$comment", "examples", "$schema", "$defs"]);

function facts(schema: Json): Set<string> {
  const defs = (schema.$defs ?? {}) as Record<string, Json>;
  const out = new Set<string>();
  const visit = (node: unknown, path: string, depth: number) => {
    if (depth > 12 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    const n = node as Json;
    if (typeof n.$ref === "string") {
      const def = n.$ref.startsWith("#/$defs/") ? defs[n.$ref.slice("#/$defs/".length)] : undefined;
      if (def) visit(def, path, depth + 1);
      else out.add(`${path || "$"}: $ref = ${JSON.stringify(n.$ref)}`);
    }
    for (const [key, value] of Object.entries(n)) {
      if (PROSE.has(key) || key === "$ref") continue;
      if (key === "properties") {
        for (const [prop, sub] of Object.entries(value as Json)) visit(sub, `${path}.${prop}`, depth + 1);
      } else if (value !== null && typeof value === "object" && !(key === "required" || key === "enum")) {
        visit(value, `${path}/${key}`, depth + 1);
      } else {
        const shown = key === "required" ? JSON.stringify([...(value as string[])].sort()) : JSON.stringify(value);
        out.add(`${path || "$"}: ${key} = ${shown}`);
      }
    }
  };
  visit(schema, "", 0);
  return out;
}

export function constraintDifferences(ours: Json, theirs: Json): string[] {
  const a = facts(ours);
  const b = facts(theirs);
  return [...[...a].filter((f) => !b.has(f)).map((f) => `only ours:   ${f}`), ...[...b].filter((f) => !a.has(f)).map((f) => `only theirs: ${f}`)];
}

/** True when both render to the same text once every description is blanked (same layout). */
export function sameLayout(ours: Json, theirs: Json): boolean {
  const blank = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(blank);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "description" ? "" : blank(v)]));
  };
  return JSON.stringify(blank(ours), null, 2) === JSON.stringify(blank(theirs), null, 2);
}
