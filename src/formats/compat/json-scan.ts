/**
 * A cursor over JSON text that JSON.parse has already accepted, for what JSON.parse does not tell:
 * where a value is written (its span) and the order of an object's keys as written. Being valid,
 * the text needs no error handling: each method consumes exactly one value or member list.
 */
const SPACES = /[ \t\r\n]*/y;
/** From an opening quote: the string's characters (escapes as pairs) and its closing quote. */
const STRING = /"(?:[^"\\]|\\.)*"/y;
const BRACKET_OR_QUOTE = /["{}[\]]/g;
const SCALAR = /^[^ \t\r\n,\]}]*/;
const STRING_OR_SPACE = /("(?:[^"\\]|\\.)*")|[ \t\r\n]+/g;

export class JsonScanner {
  private i = 0;

  constructor(private readonly text: string) {}

  private space(): void {
    SPACES.lastIndex = this.i;
    SPACES.test(this.text);
    this.i = SPACES.lastIndex;
  }

  /** The index after the string that starts (with its quote) at `start`. */
  private stringEnd(start: number): number {
    STRING.lastIndex = start;
    STRING.test(this.text);
    return STRING.lastIndex;
  }

  private string(): string {
    const start = this.i;
    this.i = this.stringEnd(start);
    const inner = this.text.slice(start + 1, this.i - 1);
    return inner.includes("\\") ? (JSON.parse(`"${inner}"`) as string) : inner;
  }

  /** `{` or `[` when the next value is an object or array, else "". */
  peek(): string {
    this.space();
    const c = this.text[this.i];
    return c === "{" || c === "[" ? c : "";
  }

  /** Walks the object at the cursor; `onMember(key)` must consume the member's value. */
  object(onMember: (key: string) => void): void {
    this.members("}", () => {
      const key = this.string();
      this.space();
      this.i++; // ':'
      onMember(key);
    });
  }

  /** Walks the array at the cursor; `onItem(index)` must consume the element. */
  array(onItem: (index: number) => void): void {
    let n = 0;
    this.members("]", () => onItem(n++));
  }

  private members(close: string, one: () => void): void {
    this.space();
    this.i++; // '{' or '['
    for (;;) {
      this.space();
      if (this.text[this.i] === close) break;
      one();
      this.space();
      if (this.text[this.i] === ",") this.i++;
    }
    this.i++;
  }

  /** Skips the value at the cursor; returns its [start, end) in the text. */
  skip(): [number, number] {
    const kind = this.peek();
    const start = this.i;
    if (kind === "") {
      this.i = this.text[start] === '"' ? this.stringEnd(start) : start + (SCALAR.exec(this.text.slice(start, start + 64))?.[0].length ?? 0);
      return [start, this.i];
    }
    // A container: jump from bracket to bracket (and over strings) with native searches, no parsing.
    let depth = 0;
    BRACKET_OR_QUOTE.lastIndex = start;
    for (;;) {
      const at = BRACKET_OR_QUOTE.exec(this.text);
      if (!at) throw new Error("json-scan: unbalanced text");
      const c = at[0];
      if (c === '"') {
        BRACKET_OR_QUOTE.lastIndex = this.stringEnd(at.index);
        continue;
      }
      depth += c === "{" || c === "[" ? 1 : -1;
      if (depth === 0) {
        this.i = at.index + 1;
        return [start, this.i];
      }
    }
  }
}

/** JSON text without the whitespace between tokens (Go's json.Compact with HTML escaping off). */
export function compactJson(json: string): string {
  return json.replace(STRING_OR_SPACE, (match, string: string | undefined) => string ?? "");
}
