/**
 * A cursor over JSON text that JSON.parse has already accepted, for what JSON.parse does not tell:
 * where a value is written (its span) and the order of an object's keys as written. Being valid,
 * the text needs no error handling: each method consumes exactly one value or member list.
 */
const SPACE = " \t\r\n";

export class JsonScanner {
  private i = 0;

  constructor(private readonly text: string) {}

  private space(): void {
    while (this.i < this.text.length && SPACE.includes(this.text[this.i] as string)) this.i++;
  }

  private string(): string {
    const start = this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === "\\" ? 2 : 1;
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
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
    if (kind === "{") this.object(() => void this.skip());
    else if (kind === "[") this.array(() => void this.skip());
    else if (this.text[this.i] === '"') this.string();
    else while (this.i < this.text.length && !`${SPACE},]}`.includes(this.text[this.i] as string)) this.i++;
    return [start, this.i];
  }
}

/** JSON text without the whitespace between tokens (Go's json.Compact with HTML escaping off). */
export function compactJson(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += json[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!SPACE.includes(c)) out += c;
  }
  return out;
}
