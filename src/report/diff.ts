/**
 * A unified diff (final.patch, prediction.patch) as HTML: one foldable block per file with its
 * added and removed line counts, each hunk's lines numbered on both sides, additions and removals
 * coloured. Whatever does not parse as a diff is shown as text lines, never dropped.
 */
import { count, esc } from "./page.ts";

interface Line {
  kind: "add" | "del" | "ctx" | "hunk" | "note";
  text: string;
  old?: number;
  new?: number;
}

interface FileDiff {
  name: string;
  lines: Line[];
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function fileName(header: string): string {
  // `diff --git a/x b/x`: the b side (a rename shows where it went).
  const m = /^diff --git a\/(.*) b\/(.*)$/.exec(header);
  return m ? (m[2] as string) : header.replace(/^diff\s+/, "");
}

export function parseDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let oldNo = 0;
  let newNo = 0;
  // lines of the hunk still to come on each side: the hunk ends when both are 0
  let oldLeft = 0;
  let newLeft = 0;
  const start = (name: string) => {
    file = { name, lines: [], added: 0, removed: 0 };
    files.push(file);
    oldLeft = newLeft = 0;
  };
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) {
    const inHunk = oldLeft > 0 || newLeft > 0;
    if (line.startsWith("diff ")) {
      start(fileName(line));
      continue;
    }
    if (!inHunk && line.startsWith("--- ")) {
      // A patch without `diff --git` headers starts a file at its `---` line.
      if (!file || file.lines.some((l) => l.kind === "hunk")) start(line.slice(4).replace(/^a\//, ""));
      continue;
    }
    if (!inHunk && line.startsWith("+++ ")) {
      const target = line.slice(4).replace(/^b\//, "");
      if (file && target !== "/dev/null") file.name = target;
      continue;
    }
    const h = inHunk ? null : HUNK.exec(line);
    if (h) {
      if (!file) start("(patch)");
      oldNo = Number(h[1]);
      newNo = Number(h[3]);
      oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      newLeft = h[4] === undefined ? 1 : Number(h[4]);
      file?.lines.push({ kind: "hunk", text: line });
      continue;
    }
    if (!file) start("(patch)");
    const f = file as FileDiff;
    if (inHunk && line.startsWith("+")) {
      f.lines.push({ kind: "add", text: line, new: newNo++ });
      f.added++;
      newLeft--;
    } else if (inHunk && line.startsWith("-")) {
      f.lines.push({ kind: "del", text: line, old: oldNo++ });
      f.removed++;
      oldLeft--;
    } else if (inHunk && (line.startsWith(" ") || line === "")) {
      f.lines.push({ kind: "ctx", text: line, old: oldNo++, new: newNo++ });
      oldLeft--;
      newLeft--;
    } else {
      // `\ No newline at end of file`, index lines, mode changes, binary notes
      f.lines.push({ kind: "note", text: line });
    }
  }
  return files;
}

function row(l: Line): string {
  if (l.kind === "hunk" || l.kind === "note") return `<tr class="${l.kind}"><td class="ln"></td><td class="ln"></td><td class="code">${esc(l.text)}</td></tr>`;
  return `<tr class="${l.kind}"><td class="ln">${l.old ?? ""}</td><td class="ln">${l.new ?? ""}</td><td class="code">${esc(l.text)}</td></tr>`;
}

/** The diff as HTML; each file open unless the diff is large. */
export function diffHtml(text: string): string {
  const files = parseDiff(text);
  if (files.length === 0) return '<p class="muted">The patch is empty.</p>';
  const open = files.reduce((n, f) => n + f.lines.length, 0) <= 2000;
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const head = `<p>${count(files.length)} file${files.length === 1 ? "" : "s"} changed, <span class="passed">+${count(added)}</span> <span class="failed">−${count(removed)}</span></p>`;
  const blocks = files.map(
    (f) =>
      `<details class="diff-file"${open ? " open" : ""}><summary>${esc(f.name)} <span class="passed">+${f.added}</span> <span class="failed">−${f.removed}</span></summary><table class="diff">${f.lines.map(row).join("")}</table></details>`,
  );
  return head + blocks.join("\n");
}
