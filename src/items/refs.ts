/**
 * `{ref: path[#fragment]}` objects and bare-path file slots. Paths resolve against the dataset
 * file's folder (never the working directory) and must stay inside it. A ref whose target is
 * itself only a ref object is followed (departure from the reference, which would use the ref
 * object as the payload); a chain that comes back to a file#fragment it already visited is a
 * cyclic-ref error.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";
import { isMapping, pyStr } from "./python.ts";
import { parseYaml } from "./yaml.ts";

export class ItemsError extends UserError {}

/** `file:line:col[: item <id>]`, computed only when a message needs it (rows are many). */
export type Where = string | (() => string);

/** Throws `<where>: <text>`. */
export function fail(where: Where, text: string): never {
  throw new ItemsError(`${typeof where === "function" ? where() : where}: ${text}`);
}

/** A non-empty mapping whose keys are a subset of {ref, id}. */
export function isRefObject(value: unknown): value is { ref?: unknown; id?: unknown } {
  if (!isMapping(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k === "ref" || k === "id");
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export class RefResolver {
  private readonly yamlCache = new Map<string, unknown>();
  private readonly realBase: string;

  constructor(readonly baseDir: string) {
    this.realBase = realpathSync(baseDir);
  }

  /** An absolute path for `path` inside the dataset folder, or an error naming the ref. */
  private locate(refText: string, path: string, where: Where): string {
    const full = resolve(this.baseDir, path);
    if (!inside(this.baseDir, full)) fail(where, msg.refEscapes(refText));
    if (!isFile(full)) fail(where, msg.refNotFound(refText, full));
    if (!inside(this.realBase, realpathSync(full))) fail(where, msg.refEscapes(refText));
    return full;
  }

  /** Resolves a ref object: `{id}` alone is a reserved catalog ref; `ref` must be a string. */
  loadRefObject(ref: { ref?: unknown; id?: unknown }, where: Where): unknown {
    if (ref.ref === undefined) fail(where, msg.catalogRef(ref.id));
    if (typeof ref.ref !== "string") fail(where, msg.refNotString());
    return this.load(ref.ref, where);
  }

  /** Loads `path[#fragment]`: text files as text, anything else as YAML with fragment selection. */
  load(refText: string, where: Where, chain: string[] = []): unknown {
    const hash = refText.indexOf("#");
    const path = hash < 0 ? refText : refText.slice(0, hash);
    const fragment = hash < 0 ? undefined : refText.slice(hash + 1).trim() || undefined;
    const full = this.locate(refText, path, where);
    const visit = `${relative(this.baseDir, full)}${fragment ? `#${fragment}` : ""}`;
    if (chain.includes(visit)) fail(where, msg.refCycle([...chain, visit]));
    if (chain.length >= 16) fail(where, msg.refTooDeep(refText));
    if (/\.(txt|md)$/i.test(full)) {
      if (fragment) fail(where, msg.textRefFragment(refText));
      return this.readText(full, where).replace(/\n+$/, "");
    }
    let value = this.yamlCache.get(full);
    if (value === undefined) {
      value = parseYaml(full, this.readText(full, where)).value || {};
      this.yamlCache.set(full, value);
    }
    const selected = fragment === undefined ? value : selectFragment(value, fragment, where);
    if (isRefObject(selected)) {
      if (selected.ref === undefined) fail(where, msg.catalogRef(selected.id));
      if (typeof selected.ref !== "string") fail(where, msg.refNotString());
      return this.load(selected.ref, where, [...chain, visit]);
    }
    return structuredClone(selected);
  }

  private readText(full: string, where: Where): string {
    try {
      return readFileSync(full, "utf8");
    } catch (cause) {
      return fail(where, msg.fileUnreadable(full, cause instanceof Error ? cause.message : String(cause)));
    }
  }
}

const fragmentLists = ["items", "fixtures", "entries", "messages", "turns", "user"];

function byId(list: unknown, fragment: string): unknown {
  if (!Array.isArray(list)) return undefined;
  return list.find((e) => isMapping(e) && e.id !== undefined && pyStr(e.id) === fragment);
}

/** `file.yaml#frag`: a key, the mapping's own id, then an entry with that id in a known list. */
export function selectFragment(value: unknown, fragment: string, where: Where): unknown {
  if (isMapping(value)) {
    if (Object.hasOwn(value, fragment)) return value[fragment];
    if (value.id !== undefined && pyStr(value.id) === fragment) return value;
    for (const key of fragmentLists) {
      const hit = byId(value[key], fragment);
      if (hit !== undefined) return hit;
    }
  } else {
    const hit = byId(value, fragment);
    if (hit !== undefined) return hit;
  }
  return fail(where, msg.fragmentNotFound(fragment));
}
