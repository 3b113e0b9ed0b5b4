/** The patch as a diff: files and hunks with both sides' line numbers, whatever the patch holds. */
import { expect, test } from "bun:test";
import { diffHtml, parseDiff } from "../../src/report/diff.ts";

const rows = (text: string) => parseDiff(text).map((f) => [f.name, f.added, f.removed, f.lines.map((l) => `${l.kind}:${l.old ?? ""}:${l.new ?? ""}:${l.text}`)]);

test("a git diff of two files: names, counts, both sides' numbers; a removed line that starts with '--- ' stays in its hunk", () => {
  const patch = [
    "diff --git a/q.sql b/q.sql",
    "index 1..2 100644",
    "--- a/q.sql",
    "+++ b/q.sql",
    "@@ -3,3 +3,2 @@ select",
    " a",
    "--- a comment",
    " b",
    "diff --git a/new.c b/new.c",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.c",
    "@@ -0,0 +1 @@",
    "+int x;",
    "\\ No newline at end of file",
    "",
  ].join("\n");
  expect(rows(patch)).toEqual([
    ["q.sql", 0, 1, ["note:::index 1..2 100644", "hunk:::@@ -3,3 +3,2 @@ select", "ctx:3:3: a", "del:4::--- a comment", "ctx:5:4: b"]],
    ["new.c", 1, 0, ["note:::new file mode 100644", "hunk:::@@ -0,0 +1 @@", "add::1:+int x;", "note:::\\ No newline at end of file"]],
  ]);
});

test("a patch without git headers starts a file at each '---'; text that is no diff is kept as notes", () => {
  expect(rows("--- x.c\n+++ x.c\n@@ -1 +1 @@\n-a\n+b\n--- y.c\n+++ y.c\n@@ -1 +1 @@\n-c\n+d\n").map((f) => [f[0], f[1], f[2]])).toEqual([
    ["x.c", 1, 1],
    ["y.c", 1, 1],
  ]);
  expect(rows("not a diff\n<b>")).toEqual([["(patch)", 0, 0, ["note:::not a diff", "note:::<b>"]]]);
  expect(diffHtml("not a diff\n<b>")).toContain('<td class="code">&lt;b&gt;</td>');
  expect(diffHtml("")).toBe('<p class="muted">The patch is empty.</p>');
});
