/**
 * Key order of parsed mappings as written, where JS objects change it: they enumerate
 * integer-like keys ("2024", "10") first. Such a mapping records its order under `KEY_ORDER`;
 * orderedKeys() gives the keys as written. (Item datasets print values in that order; model errors
 * list unknown keys in it, as pydantic does.)
 */

/**
 * The key order of a mapping, when it is not the JS order (integer-like keys). Enumerable, so
 * object spreads carry it along; keys added or removed later are reconciled by orderedKeys().
 */
export const KEY_ORDER: unique symbol = Symbol("key order");

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** True when JS would enumerate this key ahead of the others (an array-index-like key). */
function jsReorders(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;
}

/** Builds an object from entries in that order, recording the order when JS would change it. */
export function orderedObject(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const [key, value] of entries) {
    if (!Object.hasOwn(out, key)) keys.push(key);
    // defineProperty: a "__proto__" key stays data.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return keepOrder(out, keys);
}

// Orders kept off the object itself, for objects a validator sees (arktype rejects any unknown
// key, symbols included); object spreads do not carry these.
const hiddenOrders = new WeakMap<object, readonly string[]>();

/**
 * Records `keys` as the key order of `target` when JS would enumerate them otherwise: under
 * KEY_ORDER (object spreads carry it along) or, `hidden`, beside the object.
 */
export function keepOrder<T extends object>(target: T, keys: readonly string[], hidden = false): T {
  if (!keys.some(jsReorders)) return target;
  if (hidden) hiddenOrders.set(target, [...keys]);
  else (target as { [KEY_ORDER]?: string[] })[KEY_ORDER] = [...keys];
  return target;
}

/** The keys of an object in source order (recorded order first, then any added since). */
export function orderedKeys(value: object): string[] {
  const own = Object.keys(value);
  const order = (value as { [KEY_ORDER]?: readonly string[] })[KEY_ORDER] ?? hiddenOrders.get(value);
  if (!order) return own;
  const present = new Set(own);
  const first = order.filter((k) => present.has(k));
  const seen = new Set(first);
  return [...first, ...own.filter((k) => !seen.has(k))];
}

/** `target[key] = value`, a new key going last in the key order as written (as in a Python dict). */
export function setInOrder(target: Record<string, unknown>, key: string, value: unknown): void {
  const recorded = (target as { [KEY_ORDER]?: readonly string[] })[KEY_ORDER] !== undefined || hiddenOrders.has(target);
  const before = !Object.hasOwn(target, key) && (recorded || jsReorders(key)) ? orderedKeys(target) : undefined;
  target[key] = value;
  if (before) keepOrder(target, [...before, key]);
}
