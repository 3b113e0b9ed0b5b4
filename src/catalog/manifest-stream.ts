/**
 * A manifest read task by task, for listings: the file's bytes are cut at the top level (the root
 * object's members, each element of `tasks`) and each piece goes through JSON.parse on its own, so
 * the whole document is never one string nor one parsed tree at once (peak memory about the file's
 * bytes, not bytes + text + tree), and each task is checked while it is small and in cache.
 *
 * It only reads what it fully understands: anything else (text JSON.parse would refuse, a root key
 * written twice, `tasks` before `dataset`/`version`, bytes that are not UTF-8) gives undefined, and
 * the caller reads the file the ordinary way, which words the problem exactly as it always has.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Thrown inside the scan for anything it does not take as it is. */
class NotPlain extends Error {}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

class Cursor {
  i = 0;
  constructor(private readonly b: Uint8Array) {}

  space(): number {
    const b = this.b;
    let i = this.i;
    while (i < b.length && isSpace(b[i] as number)) i++;
    this.i = i;
    return i < b.length ? (b[i] as number) : -1;
  }

  expect(c: number): void {
    if (this.space() !== c) throw new NotPlain();
    this.i++;
  }

  /** The index after the string whose opening quote is at `q` (a loop: faster here than indexOf). */
  private stringEnd(q: number): number {
    const b = this.b;
    let i = q + 1;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) return i + 1;
      if (c === undefined) throw new NotPlain();
      i += c === BACKSLASH ? 2 : 1;
    }
  }

  /** Consumes one value (of any kind) and returns it parsed. */
  value(): unknown {
    const b = this.b;
    const start = this.i;
    const first = b[start];
    let i = start;
    if (first === QUOTE) i = this.stringEnd(start);
    else if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0;
      do {
        const c = b[i] as number;
        if (c === QUOTE) {
          i = this.stringEnd(i);
          continue;
        }
        if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
        i++;
      } while (depth > 0 && i < b.length);
      if (depth > 0) throw new NotPlain();
    } else {
      while (i < b.length && !isSpace(b[i] as number) && b[i] !== COMMA && b[i] !== CLOSE_OBJECT && b[i] !== CLOSE_ARRAY) i++;
    }
    this.i = i;
    let text: string;
    try {
      text = decoder.decode(b.subarray(start, i));
      return JSON.parse(text);
    } catch {
      throw new NotPlain();
    }
  }

  /** `,` (another item follows: true) or the closing bracket (false). */
  next(close: number): boolean {
    const c = this.space();
    this.i++;
    if (c === COMMA) return true;
    if (c === close) return false;
    throw new NotPlain();
  }

  end(): boolean {
    return this.space() === -1;
  }
}

/**
 * Scans manifest bytes. `onTask(task, head)` gets each element of `tasks` as parsed, with the
 * root members read so far (`dataset` and `version` always among them); it returns false to give
 * up. Returns the root members other than `tasks` (and `tasks: []`), or undefined when the text
 * is not one the scan takes as it is (the caller then reads it the ordinary way).
 */
export function scanManifest(bytes: Uint8Array, onTask: (task: unknown, head: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  const cursor = new Cursor(bytes);
  const head: Record<string, unknown> = {};
  const seen = new Set<string>();
  try {
    cursor.expect(OPEN_OBJECT);
    if (cursor.space() === CLOSE_OBJECT) return undefined;
    do {
      if (cursor.space() !== QUOTE) return undefined;
      const key = cursor.value() as string;
      if (seen.has(key) || key === "__proto__") return undefined;
      seen.add(key);
      cursor.expect(COLON);
      cursor.space();
      if (key !== "tasks") {
        head[key] = cursor.value();
        continue;
      }
      if (!seen.has("dataset") || !seen.has("version")) return undefined;
      cursor.expect(OPEN_ARRAY);
      if (cursor.space() === CLOSE_ARRAY) {
        cursor.i++;
        continue;
      }
      do {
        cursor.space();
        if (!onTask(cursor.value(), head)) return undefined;
      } while (cursor.next(CLOSE_ARRAY));
    } while (cursor.next(CLOSE_OBJECT));
    if (!cursor.end() || !seen.has("tasks")) return undefined;
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  return { ...head, tasks: [] };
}
