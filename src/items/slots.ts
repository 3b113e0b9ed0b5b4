/**
 * The file slots and expectations of an item's inputs (§5.4, §6.4, §6.5, §6.9): memory seeds,
 * checkpoint, tool fixtures normalised to `{by_tool: {tool | "*": payload}}`, and expectations
 * with legacy keys folded under `details`.
 */
import type { Warnings } from "./deprecations.ts";
import { msg } from "./messages.ts";
import { isMapping, pyKeyList, pyStr, pyTypeName } from "./python.ts";
import { fail, isRefObject, type RefResolver, type Where } from "./refs.ts";
import { orderedKeys, setInOrder } from "../formats/compat/key-order.ts";

/** A file slot: a bare string is a path, a ref object loads, anything else is inline. */
export function fileSlot(value: unknown, refs: RefResolver, where: Where): unknown {
  if (typeof value === "string") return refs.load(value, where);
  if (isRefObject(value)) return refs.loadRefObject(value, where);
  return value;
}

const seedLists = ["seeds", "items", "memory_seeds", "entries"];

export function memorySeeds(value: unknown, refs: RefResolver, where: Where): unknown[] | undefined {
  if (value === null || value === undefined) return undefined;
  const loaded = fileSlot(value, refs, where);
  if (Array.isArray(loaded)) return loaded.length > 0 ? loaded : undefined;
  if (isMapping(loaded)) {
    if (loaded.kind === "MemorySeed") {
      const entries = Array.isArray(loaded.entries) ? loaded.entries : [];
      const seeds = entries.filter(isMapping).map((entry) => {
        const seed = { ...entry };
        if (!("source" in seed) && seed.key) seed.source = seed.key;
        if (!("content" in seed) && seed.text) seed.content = seed.text;
        return seed;
      });
      return seeds.length > 0 ? seeds : undefined;
    }
    // One seed picked by `file#id` (the reference finds no list in it and drops it silently).
    if ("content" in loaded && !seedLists.some((k) => k in loaded)) return [loaded];
    const key = seedLists.find((k) => Array.isArray(loaded[k]));
    const list = key ? (loaded[key] as unknown[]) : [];
    return list.length > 0 ? list : undefined;
  }
  return fail(where, msg.seedsType(pyTypeName(loaded)));
}

export interface Checkpoint {
  load: unknown;
  save: unknown;
}

export function checkpoint(value: unknown, refs: RefResolver, where: Where): Checkpoint {
  const raw = value ?? {};
  if (!isMapping(raw)) fail(where, msg.checkpointNotMapping());
  for (const key of Object.keys(raw)) {
    if (key !== "load" && key !== "save") fail(where, msg.unknownKey(`inputs.checkpoint.${key}`));
  }
  const load = typeof raw.load === "string" || isRefObject(raw.load) ? fileSlot(raw.load, refs, where) : raw.load;
  return { load: load ?? null, save: raw.save ?? false };
}

export function toolFixtures(value: unknown, refs: RefResolver, where: Where): { by_tool: Record<string, unknown> } | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || isRefObject(value)) return { by_tool: { "*": fileSlot(value, refs, where) } };
  if (Array.isArray(value)) {
    const byTool: Record<string, unknown> = {};
    for (const entry of value) {
      if (!isMapping(entry) || typeof entry.ref !== "string") fail(where, msg.fixtureListEntry());
      const payload = refs.load(entry.ref, where);
      const targets =
        Array.isArray(entry.tools) && entry.tools.length > 0 ? entry.tools.map(pyStr) : [entry.tool ? pyStr(entry.tool) : "*"];
      for (const tool of targets) setInOrder(byTool, tool, payload);
    }
    return { by_tool: byTool };
  }
  if (isMapping(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "by_tool" && isMapping(value.by_tool)) {
      const byTool: Record<string, unknown> = {};
      const given = value.by_tool;
      for (const tool of orderedKeys(given)) {
        const payload = given[tool];
        setInOrder(byTool, tool, typeof payload === "string" || isRefObject(payload) ? fileSlot(payload, refs, where) : payload);
      }
      return { by_tool: byTool };
    }
    return fail(where, msg.fixtureShape(pyKeyList(keys)));
  }
  return fail(where, msg.fixtureShape(pyTypeName(value)));
}

const genericExpectations = new Set(["ground_truth", "metrics", "details"]);

export function expectations(
  value: unknown,
  refs: RefResolver,
  where: Where,
  warnings: Warnings,
  datasetPath: string,
): Record<string, unknown> {
  const loaded = isRefObject(value) ? refs.loadRefObject(value, where) : value;
  if (loaded === null || loaded === undefined) return {};
  if (!isMapping(loaded)) fail(where, msg.expectationsNotMapping());
  const out = { ...loaded };
  if ("details" in out && !isMapping(out.details)) fail(where, msg.detailsNotMapping());
  const legacy = orderedKeys(out).filter((k) => !genericExpectations.has(k));
  if (legacy.length > 0) {
    warnings.deprecated("dataset.legacy_expectations", datasetPath);
    const details: Record<string, unknown> = { ...((out.details as Record<string, unknown> | undefined) ?? {}) };
    const clash = legacy.filter((k) => k in details);
    if (clash.length > 0) fail(where, msg.detailsClash(pyKeyList(clash)));
    for (const k of legacy) {
      setInOrder(details, k, out[k]);
      delete out[k];
    }
    out.details = details;
  }
  return out;
}
