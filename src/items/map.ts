/**
 * Source row → raw item (§4.2): without a map the reference's question/prompt/text/user guess,
 * with a map each `dest: spec` assigned at a dotted path. The result goes through the normal item
 * loader afterwards.
 */
import { msg } from "./messages.ts";
import { isMapping, pyStr, truthy } from "./python.ts";
import { fail } from "./refs.ts";
import { compileTemplate, renderTemplate, TemplateError } from "./template.ts";
import { orderedKeys, setInOrder } from "../formats/compat/key-order.ts";

type Row = Record<string, unknown>;
type Getter = (context: Row, where: () => string) => unknown;

const promptColumns = ["question", "prompt", "text", "user"];
const answerColumns = ["answer_index", "answer", "ground_truth", "label"];

/** Compiles now, so a malformed template is reported at the map entry even when no row uses it. */
function templateGetter(template: string, at: () => string): Getter {
  let parts: ReturnType<typeof compileTemplate>;
  try {
    parts = compileTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) fail(at, error.message);
    throw error;
  }
  return (context, where) => {
    try {
      return renderTemplate(parts, template, context);
    } catch (error) {
      if (error instanceof TemplateError) fail(where, error.message);
      throw error;
    }
  };
}

function compileSpec(spec: unknown, at: () => string): Getter {
  if (spec === null || spec === undefined) return () => null;
  if (typeof spec === "string") {
    let format: Getter | undefined;
    if (spec.includes("{") && spec.includes("}")) {
      // A string that is a column name wins over the template reading, so a malformed template
      // only counts when a row lacks that column.
      try {
        format = templateGetter(spec, at);
      } catch (error) {
        format = () => {
          throw error;
        };
      }
    }
    return (context, where) =>
      Object.hasOwn(context, spec) ? context[spec] : format ? format(context, where) : null;
  }
  if (isMapping(spec)) {
    const template = truthy(spec.template) ? spec.template : spec.format;
    if (truthy(template)) return templateGetter(pyStr(template), at);
    const column = "column" in spec ? spec.column : "field" in spec ? spec.field : undefined;
    if (column !== undefined) {
      const name = pyStr(column);
      return (context) => context[name] ?? null;
    }
  }
  return () => structuredClone(spec);
}

function assign(target: Row, dest: string[], value: unknown): void {
  let node = target;
  for (const key of dest.slice(0, -1)) {
    if (!isMapping(node[key])) setInOrder(node, key, {});
    node = node[key] as Row;
  }
  const last = dest[dest.length - 1];
  if (last !== undefined) setInOrder(node, last, value);
}

/** `"<letter>. <option>"` lines, A, B, … (past Z the reference continues into `[`, `\`, …). */
export function optionsText(options: unknown[]): string {
  return options.map((o, i) => `${String.fromCharCode(65 + i)}. ${pyStr(o)}`).join("\n");
}

function defaultId(row: Row, index: number): string {
  return pyStr(truthy(row.id) ? row.id : truthy(row.question_id) ? row.question_id : index);
}

export type RowMapper = (row: Row, index: number, where: string) => Row;

/** `at(dest)` is where a map entry is written (for template syntax errors). */
export function compileMap(map: Record<string, unknown> | undefined, at: (dest: string) => string = () => "map"): RowMapper {
  if (!map || Object.keys(map).length === 0) {
    return (row, index, where) => {
      const id = defaultId(row, index);
      const column = promptColumns.find((c) => truthy(row[c]));
      if (!column) fail(`${where}: item ${id}`, msg.rowNoPrompt());
      const item: Row = { id, inputs: { user: row[column] } };
      const answer = answerColumns.find((c) => Object.hasOwn(row, c));
      if (answer && row[answer] !== null && row[answer] !== undefined) item.expectations = { ground_truth: row[answer] };
      return item;
    };
  }
  const specs = orderedKeys(map).map((dest) => [dest, map[dest]] as const).map(([dest, spec]) => ({
    dest: dest.split(".").filter(Boolean),
    get: compileSpec(spec, () => at(dest)),
  }));
  return (row, index, where) => {
    const id = defaultId(row, index);
    const at = () => `${where}: item ${id}`;
    const context = Array.isArray(row.options) && !Object.hasOwn(row, "options_text") ? { ...row, options_text: optionsText(row.options) } : row;
    const item: Row = { id };
    for (const { dest, get } of specs) assign(item, dest, get(context, at));
    item.id = item.id === null || item.id === undefined || item.id === "" ? String(index) : pyStr(item.id);
    const inputs = item.inputs;
    if (!isMapping(inputs) || inputs.user === null || inputs.user === undefined || inputs.user === "") {
      fail(`${where}: item ${item.id}`, msg.mappedNoUser(item.id as string));
    }
    return item;
  };
}
