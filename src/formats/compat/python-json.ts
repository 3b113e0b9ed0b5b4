/**
 * Python's `json` module text, which the reference's digests and hashes are computed over:
 * strings as the ensure_ascii encoder writes them, and keys in code-point order (Python's str
 * order). JSON.stringify keeps non-ASCII raw and Array.sort orders by UTF-16 units; both differ.
 */

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/** Printable ASCII other than `"` and `\\`: such text is its own JSON string literal. */
const NEEDS_ESCAPING = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/** A JSON string literal as Python's ensure_ascii encoder writes it. */
export function pythonAsciiJsonString(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return `"${text}"`;
  let out = '"';
  // Iterating UTF-16 code units is what we want: astral characters come out as their surrogate
  // pair, each escaped, exactly like Python's encoder.
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) {
      out += short;
      continue;
    }
    const unit = text.charCodeAt(i);
    out += unit >= 0x20 && unit <= 0x7e ? ch : `\\u${unit.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}

/**
 * Orders strings by Unicode code point (Python's str order). UTF-16 order only differs when a
 * surrogate (astral character) meets a unit in U+E000–U+FFFF, so compare units and fix that case.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return rankUnit(x) - rankUnit(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Surrogates encode code points above U+FFFF, so they rank after every other BMP unit. */
function rankUnit(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** A sorted copy in code-point order. */
export function sortByCodePoint(values: Iterable<string>): string[] {
  return [...values].sort(compareCodePoints);
}
