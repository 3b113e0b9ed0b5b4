/**
 * Python `str.format(**row)` for map templates: `{column}`, `{column[0]}` / `{column[key]}`,
 * `!s` / `!r` conversions, and `{{` / `}}` for literal braces. Format specs (`{x:>5}`), attribute
 * access (`{x.y}`) and positional fields (`{}`, `{0}`) are rejected when the template is compiled:
 * a map names columns, and silently different padding or number formats would be worse than an
 * error. Values render with Python's str() (`True`, `None`, `['a', 'b']`).
 */
import { msg } from "./messages.ts";
import { isMapping, pyRepr, pyStr } from "./python.ts";

interface Field {
  name: string;
  keys: string[];
  repr: boolean;
}
type Part = string | Field;

export class TemplateError extends Error {}

function parseField(body: string, template: string): Field {
  const bad = (what: string) => new TemplateError(msg.templateSyntax(template, what));
  let text = body;
  let repr = false;
  const bang = text.indexOf("!");
  const colon = text.indexOf(":");
  if (colon >= 0 && (bang < 0 || colon < bang)) throw bad(`format spec in {${body}} is not supported`);
  if (bang >= 0) {
    const conversion = text.slice(bang + 1);
    if (conversion !== "s" && conversion !== "r") throw bad(`unknown conversion in {${body}} (use !s or !r)`);
    repr = conversion === "r";
    text = text.slice(0, bang);
  }
  const m = /^([^.[\]]*)((?:\[[^\]]*\])*)$/.exec(text);
  if (!m) throw bad(`{${body}}: attribute access is not supported; use {column[key]}`);
  const [, name = "", index = ""] = m;
  if (name === "" || /^\d+$/.test(name)) throw bad(`positional field {${body}}: name a column, e.g. {question}`);
  const keys = [...index.matchAll(/\[([^\]]*)\]/g)].map((k) => k[1] ?? "");
  return { name, keys, repr };
}

export function compileTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let literal = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === "{" && template[i + 1] === "{") {
      literal += "{";
      i++;
    } else if (c === "}" && template[i + 1] === "}") {
      literal += "}";
      i++;
    } else if (c === "}") {
      throw new TemplateError(msg.templateSyntax(template, "Single '}' encountered in format string"));
    } else if (c === "{") {
      const close = template.indexOf("}", i);
      if (close < 0) throw new TemplateError(msg.templateSyntax(template, "Single '{' encountered in format string"));
      if (literal) parts.push(literal);
      literal = "";
      parts.push(parseField(template.slice(i + 1, close), template));
      i = close;
    } else literal += c;
  }
  if (literal) parts.push(literal);
  return parts;
}

export function renderTemplate(parts: Part[], template: string, context: Record<string, unknown>): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    if (!Object.hasOwn(context, part.name)) throw new TemplateError(msg.templateMissingColumn(template, part.name));
    let value = context[part.name];
    for (const key of part.keys) {
      const next = Array.isArray(value) && /^\d+$/.test(key) ? value[Number(key)] : isMapping(value) ? value[key] : undefined;
      if (next === undefined) throw new TemplateError(msg.templateMissingColumn(template, `${part.name}[${key}]`));
      value = next;
    }
    out += part.repr ? pyRepr(value) : pyStr(value);
  }
  return out;
}
