/**
 * Python's `difflib.unified_diff(a, b, fromfile, tofile, lineterm="")`, hunk for hunk: `manifest
 * --check` prints it, and difflib's SequenceMatcher (longest matching block first, popular lines
 * ignored as anchors) picks other hunks than Myers-style diffs do.
 */
type Match = [number, number, number];
type Opcode = [tag: "equal" | "replace" | "delete" | "insert", i1: number, i2: number, j1: number, j2: number];

class SequenceMatcher {
  private readonly b2j = new Map<string, number[]>();

  constructor(
    private readonly a: readonly string[],
    private readonly b: readonly string[],
  ) {
    b.forEach((line, j) => {
      const list = this.b2j.get(line);
      if (list) list.push(j);
      else this.b2j.set(line, [j]);
    });
    // autojunk: in long sequences, lines occurring in over 1% of b are not used as anchors.
    if (b.length >= 200) {
      const limit = Math.floor(b.length / 100) + 1;
      for (const [line, list] of [...this.b2j]) if (list.length > limit) this.b2j.delete(line);
    }
  }

  private longestMatch(alo: number, ahi: number, blo: number, bhi: number): Match {
    const { a, b } = this;
    let [bestI, bestJ, bestSize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of this.b2j.get(a[i] as string) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestSize) [bestI, bestJ, bestSize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    while (bestI > alo && bestJ > blo && a[bestI - 1] === b[bestJ - 1]) [bestI, bestJ, bestSize] = [bestI - 1, bestJ - 1, bestSize + 1];
    while (bestI + bestSize < ahi && bestJ + bestSize < bhi && a[bestI + bestSize] === b[bestJ + bestSize]) bestSize++;
    return [bestI, bestJ, bestSize];
  }

  private matchingBlocks(): Match[] {
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    const blocks: Match[] = [];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
      const [i, j, k] = this.longestMatch(alo, ahi, blo, bhi);
      if (k === 0) continue;
      blocks.push([i, j, k]);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const merged: Match[] = [];
    let [i1, j1, k1] = [0, 0, 0];
    for (const [i2, j2, k2] of blocks) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) merged.push([i1, j1, k1]);
        [i1, j1, k1] = [i2, j2, k2];
      }
    }
    if (k1) merged.push([i1, j1, k1]);
    merged.push([this.a.length, this.b.length, 0]);
    return merged;
  }

  opcodes(): Opcode[] {
    const out: Opcode[] = [];
    let [i, j] = [0, 0];
    for (const [ai, bj, size] of this.matchingBlocks()) {
      if (i < ai && j < bj) out.push(["replace", i, ai, j, bj]);
      else if (i < ai) out.push(["delete", i, ai, j, bj]);
      else if (j < bj) out.push(["insert", i, ai, j, bj]);
      [i, j] = [ai + size, bj + size];
      if (size) out.push(["equal", ai, i, bj, j]);
    }
    return out;
  }

  groupedOpcodes(n: number): Opcode[][] {
    const codes = this.opcodes();
    if (codes.length === 0) codes.push(["equal", 0, 1, 0, 1]);
    const first = codes[0] as Opcode;
    if (first[0] === "equal") codes[0] = ["equal", Math.max(first[1], first[2] - n), first[2], Math.max(first[3], first[4] - n), first[4]];
    const last = codes.at(-1) as Opcode;
    if (last[0] === "equal") codes[codes.length - 1] = ["equal", last[1], Math.min(last[2], last[1] + n), last[3], Math.min(last[4], last[3] + n)];
    const groups: Opcode[][] = [];
    let group: Opcode[] = [];
    for (const code of codes) {
      let [tag, i1, i2, j1, j2] = code;
      if (tag === "equal" && i2 - i1 > 2 * n) {
        group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
        groups.push(group);
        group = [];
        [i1, j1] = [Math.max(i1, i2 - n), Math.max(j1, j2 - n)];
      }
      group.push([tag, i1, i2, j1, j2]);
    }
    if (group.length > 0 && !(group.length === 1 && (group[0] as Opcode)[0] === "equal")) groups.push(group);
    return groups;
  }
}

function range(start: number, stop: number): string {
  const length = stop - start;
  if (length === 1) return `${start + 1}`;
  return `${length === 0 ? start : start + 1},${length}`;
}

/** The lines of the unified diff (no line terminators); empty when a and b are equal. */
export function unifiedDiff(a: readonly string[], b: readonly string[], fromFile: string, toFile: string, context = 3): string[] {
  const lines: string[] = [];
  for (const group of new SequenceMatcher(a, b).groupedOpcodes(context)) {
    if (lines.length === 0) lines.push(`--- ${fromFile}`, `+++ ${toFile}`);
    const first = group[0] as Opcode;
    const last = group.at(-1) as Opcode;
    lines.push(`@@ -${range(first[1], last[2])} +${range(first[3], last[4])} @@`);
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === "equal") {
        for (const line of a.slice(i1, i2)) lines.push(` ${line}`);
        continue;
      }
      if (tag === "replace" || tag === "delete") for (const line of a.slice(i1, i2)) lines.push(`-${line}`);
      if (tag === "replace" || tag === "insert") for (const line of b.slice(j1, j2)) lines.push(`+${line}`);
    }
  }
  return lines;
}
