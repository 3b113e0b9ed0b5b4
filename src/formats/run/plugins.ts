/**
 * plugins.yaml: the entry type and a validator for the small JSON Schema subset that
 * runtime/plugins/schema.json uses. Hand-written on purpose: the entrypoint must reach the agent's
 * exec in ≤ 50 ms and arktype/ajv cost ~100 ms to load. No I/O here.
 */
export const HOOKS = ["before-agent", "on-agent", "after-agent", "before-grading", "on-grading", "after-grading"] as const;
export type Hook = (typeof HOOKS)[number];

/**
 * The plugin report the host reads, in the results dir (out of the agent's reach while the
 * container runs); `$SSE_ARCHIVE/plugins/results.json` is the same text for readers of the archive.
 */
export const PLUGIN_REPORT = "plugin-results.json";

export interface PluginEntry {
  name: string;
  enabled: boolean;
  hook: Hook;
  llm: boolean;
  timeout: number;
}

export interface SchemaProblem {
  path: (string | number)[];
  problem: string;
}

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  minLength?: number;
};

const SUPPORTED = new Set(["$schema", "$id", "title", "description", "type", "properties", "required", "additionalProperties", "items", "enum", "pattern", "minimum", "minLength"]);

/** Throws when the schema uses a keyword this validator does not implement (fail closed). */
export function checkSchemaSubset(schema: unknown, where = "#"): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Error(`${where} is not an object`);
  for (const [k, v] of Object.entries(schema)) {
    if (!SUPPORTED.has(k)) throw new Error(`${where} uses unsupported keyword "${k}"`);
    if (k === "properties") for (const [p, s] of Object.entries(v as object)) checkSchemaSubset(s, `${where}/properties/${p}`);
    if (k === "items") checkSchemaSubset(v, `${where}/items`);
  }
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    case "array":
      return Array.isArray(v);
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "null":
      return v === null;
    default:
      return typeof v === type;
  }
}

export function validateAgainst(schema: Schema, value: unknown, path: (string | number)[] = []): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const add = (problem: string, at = path) => out.push({ path: at, problem });
  if (schema.type && !typeOk(schema.type, value)) {
    add(`must be ${schema.type === "integer" || schema.type === "array" || schema.type === "object" ? "an" : "a"} ${schema.type} (was ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value})`);
    return out;
  }
  if (schema.enum && !schema.enum.includes(value)) add(`must be one of ${schema.enum.join(", ")} (was ${JSON.stringify(value)})`);
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) add(`must not be empty`);
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) add(`must match ${schema.pattern} (was ${JSON.stringify(value)})`);
  }
  if (typeof value === "number" && schema.minimum !== undefined && value < schema.minimum) add(`must be at least ${schema.minimum} (was ${value})`);
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => out.push(...validateAgainst(schema.items!, v, [...path, i])));
  if (typeOk("object", value)) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) add(`${key} is required`);
    for (const [key, v] of Object.entries(obj)) {
      const sub = schema.properties?.[key];
      if (sub) out.push(...validateAgainst(sub, v, [...path, key]));
      else if (schema.additionalProperties === false) add(`${key} is not allowed`, [...path, key]);
    }
  }
  return out;
}

export function formatPath(path: (string | number)[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("").replace(/^\./, "");
}

/** Names in plugins.yaml order: SSE_PLUGINS unset → enabled; set → exactly those (unknown reported). */
export function selectPlugins(all: PluginEntry[], selection: string[] | undefined): { selected: PluginEntry[]; unknown: string[] } {
  if (selection === undefined) return { selected: all.filter((p) => p.enabled), unknown: [] };
  const names = new Set(selection);
  return {
    selected: all.filter((p) => names.has(p.name)),
    unknown: [...names].filter((n) => !all.some((p) => p.name === n)),
  };
}
