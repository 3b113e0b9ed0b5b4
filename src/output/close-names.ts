/**
 * "Did you mean …": the known names closest to a misspelt one, for messages that name what exists.
 * Close means at most a third of the name's letters differ (edits of Damerau–Levenshtein, adjacent
 * swaps counting one), or one name starts with the other.
 */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Up to `max` of `known` close to `name`, closest first (ties in `known`'s order). */
export function closeNames(name: string, known: readonly string[], max = 3): string[] {
  const word = name.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 3));
  return known
    .map((k, index) => {
      const other = k.toLowerCase();
      const prefix = word.length >= 3 && (other.startsWith(word) || word.startsWith(other));
      return { k, index, d: prefix ? 0.5 : distance(word, other) };
    })
    .filter((c) => c.d <= limit && c.k !== name)
    .sort((x, y) => x.d - y.d || x.index - y.index)
    .slice(0, max)
    .map((c) => c.k);
}

/** "'a' or 'b'" of the close names, or "" when nothing is close. */
export function didYouMean(name: string, known: readonly string[]): string {
  const close = closeNames(name, known).map((c) => `'${c}'`);
  if (close.length === 0) return "";
  const last = close.pop() as string;
  return close.length > 0 ? `${close.join(", ")} or ${last}` : last;
}
