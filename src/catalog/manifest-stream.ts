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

/** Thrown when a step reaches the end of the bytes read so far (the step is then redone after a read). */
const NEED_MORE = Symbol("need more");

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Fills `into` from `offset` on; returns how many bytes it put there (0: the end). */
export type ByteSource = (into: Uint8Array, offset: number) => number;

/** A source over bytes already in memory (the tests'), given `chunk` bytes at a time. */
export function bytesSource(bytes: Uint8Array, chunk = bytes.length): ByteSource {
  let at = 0;
  return (into, offset) => {
    const n = Math.min(chunk, into.length - offset, bytes.length - at);
    into.set(bytes.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

class Cursor {
  i = 0;
  private b: Uint8Array;
  private len = 0;
  private eof = false;

  constructor(
    private readonly source: ByteSource,
    size: number,
  ) {
    this.b = new Uint8Array(size);
  }

  /**
   * Runs one step of the scan; when it runs out of bytes, keeps those from where it began, reads
   * more and runs it again (so a buffer holds at most one task and a chunk, however large the file).
   */
  step<T>(fn: () => T): T {
    for (;;) {
      const start = this.i;
      try {
        return fn();
      } catch (error) {
        if (error !== NEED_MORE) throw error;
        this.i = start;
        this.read(start);
      }
    }
  }

  private read(keep: number): void {
    this.b.copyWithin(0, keep, this.len);
    this.len -= keep;
    this.i -= keep;
    if (this.len === this.b.length) {
      const bigger = new Uint8Array(this.b.length * 2);
      bigger.set(this.b);
      this.b = bigger;
    }
    const n = this.source(this.b, this.len);
    this.len += n;
    if (n === 0) this.eof = true;
  }

  /** At the end of what is read: the end of the text (true) or a step to redo (throws). */
  private atEnd(): true {
    if (!this.eof) throw NEED_MORE;
    return true;
  }

  private space(): number {
    const b = this.b;
    for (let i = this.i; ; i++) {
      if (i >= this.len) {
        this.atEnd();
        this.i = i;
        return -1;
      }
      const c = b[i] as number;
      if (!isSpace(c)) {
        this.i = i;
        return c;
      }
    }
  }

  /** The next byte that is not white space (-1 at the end), the cursor on it. */
  peek(): number {
    return this.step(() => this.space());
  }

  expect(c: number): void {
    this.step(() => {
      if (this.space() !== c) throw new NotPlain();
      this.i++;
    });
  }

  /** The index after the string whose opening quote is at `q` (a loop: faster here than indexOf). */
  private stringEnd(q: number): number {
    const b = this.b;
    const len = this.len;
    let i = q + 1;
    for (;;) {
      if (i >= len) throw this.atEnd() && new NotPlain();
      const c = b[i] as number;
      if (c === QUOTE) return i + 1;
      i += c === BACKSLASH ? 2 : 1;
    }
  }

  /** Consumes one value (of any kind), white space before it included, and returns it parsed. */
  value(): unknown {
    return this.step(() => this.parsed());
  }

  private parsed(): unknown {
    this.space();
    const b = this.b;
    const len = this.len;
    const start = this.i;
    const first = b[start];
    let i = start;
    if (first === QUOTE) i = this.stringEnd(start);
    else if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0;
      do {
        if (i >= len) throw this.atEnd() && new NotPlain();
        const c = b[i] as number;
        if (c === QUOTE) {
          i = this.stringEnd(i);
          continue;
        }
        if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
        i++;
      } while (depth > 0);
    } else {
      for (;;) {
        if (i >= len && this.atEnd()) break;
        const c = b[i] as number;
        if (isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY) break;
        i++;
      }
    }
    this.i = i;
    try {
      return JSON.parse(decoder.decode(b.subarray(start, i)));
    } catch {
      throw new NotPlain();
    }
  }

  /** `,` (another item follows: true) or the closing bracket (false). */
  next(close: number): boolean {
    return this.step(() => {
      const c = this.space();
      this.i++;
      if (c === COMMA) return true;
      if (c === close) return false;
      throw new NotPlain();
    });
  }
}

/**
 * Scans manifest bytes. `onTask(task, head)` gets each element of `tasks` as parsed, with the
 * root members read so far (`dataset` and `version` always among them); it returns false to give
 * up. Returns the root members other than `tasks` (and `tasks: []`), or undefined when the text
 * is not one the scan takes as it is (the caller then reads it the ordinary way).
 */
export function scanManifest(
  source: ByteSource,
  onTask: (task: unknown, head: Record<string, unknown>) => boolean,
  bufferSize = 1 << 20,
): Record<string, unknown> | undefined {
  const cursor = new Cursor(source, bufferSize);
  const head: Record<string, unknown> = {};
  const seen = new Set<string>();
  try {
    cursor.expect(OPEN_OBJECT);
    do {
      if (cursor.peek() !== QUOTE) return undefined;
      const key = cursor.value() as string;
      if (seen.has(key) || key === "__proto__") return undefined;
      seen.add(key);
      cursor.expect(COLON);
      if (key !== "tasks") {
        head[key] = cursor.value();
        continue;
      }
      if (!seen.has("dataset") || !seen.has("version")) return undefined;
      cursor.expect(OPEN_ARRAY);
      if (cursor.peek() === CLOSE_ARRAY) {
        cursor.i++;
        continue;
      }
      do {
        if (!onTask(cursor.value(), head)) return undefined;
      } while (cursor.next(CLOSE_ARRAY));
    } while (cursor.next(CLOSE_OBJECT));
    if (cursor.peek() !== -1 || !seen.has("tasks")) return undefined;
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  return { ...head, tasks: [] };
}
