/**
 * Python's `shlex.split(text)` (POSIX mode, no comments): whitespace-separated words, single
 * quotes literal, double quotes with `\` escaping only `\ " $ `` and newline, `\` outside quotes
 * escaping any character. Throws on an unclosed quote or a trailing escape, as shlex does.
 */
export function shlexSplit(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error("No closing quotation");
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("No closing quotation");
        const c = text[i] as string;
        if (c === '"') break;
        if (c === "\\" && i + 1 < text.length && '\\"$`\n'.includes(text[i + 1] as string)) {
          word += text[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (ch === "\\") {
      if (i + 1 >= text.length) throw new Error("No escaped character");
      word += text[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
