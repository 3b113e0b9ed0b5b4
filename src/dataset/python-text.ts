/**
 * Small pieces of Python string behaviour that the reference's messages and parsing depend on.
 */

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`; escapes as CPython does. */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp >= 0x80 && cp <= 0xa0) out += `\\x${cp.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}

/** What Python's text mode (universal newlines) reads: `\r\n` and a lone `\r` become `\n`. */
export function universalNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** Python `str.splitlines()`: every line boundary Python knows, no trailing empty line. */
export function pythonSplitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** `posixpath.normpath` */
export function posixNormpath(path: string): string {
  if (path === "") return ".";
  const initialSlashes = path.startsWith("/") ? (path.startsWith("//") && !path.startsWith("///") ? 2 : 1) : 0;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== ".." || (initialSlashes === 0 && parts.length === 0) || parts.at(-1) === "..") parts.push(part);
    else if (parts.length > 0) parts.pop();
  }
  const joined = "/".repeat(initialSlashes) + parts.join("/");
  return joined || ".";
}

/** `posixpath.join(a, b)`: an absolute b replaces a; no normalisation. */
export function posixJoin(base: string, next: string): string {
  if (next.startsWith("/")) return next;
  if (base === "" || base.endsWith("/")) return base + next;
  return `${base}/${next}`;
}

/** `posixpath.relpath(path, start)` for absolute, normalised paths. */
export function posixRelpath(path: string, start: string): string {
  const a = posixNormpath(path).split("/").filter(Boolean);
  const b = posixNormpath(start).split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rel = [...Array(b.length - i).fill(".."), ...a.slice(i)];
  return rel.length === 0 ? "." : rel.join("/");
}
