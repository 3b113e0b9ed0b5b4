/**
 * The HTML page at `/`: one row per task (id linking to its page, vulnerability type, language,
 * sanitizer, project, checks, and whether its case image is pinned by digest or named by the
 * dataset's tag), with a text filter. The filter is a small inline script (the page's only one, allowed by
 * its hash in the CSP header); it reads `?q=` so a filtered view is a link. Every value is escaped.
 */
import { escapeHtml, htmlPage } from "./html.ts";
import type { CaseImageRef, TaskSummary } from "./image-refs.ts";
import type { Manifest } from "../formats/manifest/manifest-types.ts";

export interface IndexRow {
  task: TaskSummary;
  image: CaseImageRef | undefined;
  type: string | null;
  sanitizer: string | null;
}

/** Where a task's HTML page is: beside the JSON API, which stays the reference's. */
export function taskPagePath(id: string): string {
  return `/html/tasks/${encodeURIComponent(id)}`;
}

/** Every word of the filter must appear in the row's text (case-insensitive); the URL keeps it. */
export const FILTER_SCRIPT = `(function () {
  var input = document.getElementById("filter");
  var shown = document.getElementById("shown");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#tasks tbody tr"));
  function apply() {
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var n = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var match = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !match;
      if (match) n++;
    });
    shown.textContent = n + " of " + rows.length + " tasks shown";
  }
  var q = new URLSearchParams(location.search).get("q");
  if (q) input.value = q;
  input.addEventListener("input", function () {
    apply();
    var url = new URL(location.href);
    if (input.value) url.searchParams.set("q", input.value); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  });
  apply();
})();`;

const NONE = "—";

function cell(label: string, content: string, title?: string): string {
  return `<td data-label="${label}"${title === undefined ? "" : ` title="${escapeHtml(title)}"`}>${content}</td>`;
}

function row({ task, image, type, sanitizer }: IndexRow): string {
  const naming = image?.pinned ? `pinned ${image.digest?.slice(0, 19)}…` : "tagged";
  return [
    "<tr>",
    cell("Task", `<a href="${escapeHtml(taskPagePath(task.id))}">${escapeHtml(task.id)}</a>`),
    cell("Type", escapeHtml(type || NONE)),
    cell("Language", escapeHtml(task.language)),
    cell("Sanitizer", escapeHtml(sanitizer || NONE)),
    cell("Project", escapeHtml(task.project)),
    cell("Checks", escapeHtml(task.checks.join(", "))),
    cell("Image", escapeHtml(naming), task.image),
    "</tr>",
  ].join("");
}

export function renderIndexPage(manifest: Pick<Manifest, "dataset" | "version">, rows: readonly IndexRow[], hasLock: boolean): string {
  const title = `ssebench catalog: ${manifest.dataset} ${manifest.version}`;
  const links = ['<a href="/tasks">/tasks</a>', '<a href="/manifest.json">/manifest.json</a>'];
  if (hasLock) links.push('<a href="/images.lock.json">/images.lock.json</a>');
  const body = `<h1>${escapeHtml(title)}</h1>
<p>${rows.length} tasks. JSON: ${links.join(", ")}</p>
<form role="search" action="/" method="get">
<label for="filter">Filter</label> <input type="search" id="filter" name="q" placeholder="type, language, project, id…" autocomplete="off">
<span id="shown" class="muted" aria-live="polite">${rows.length} of ${rows.length} tasks shown</span>
</form>
<table id="tasks">
<thead><tr><th>Task</th><th>Type</th><th>Language</th><th>Sanitizer</th><th>Project</th><th>Checks</th><th>Image</th></tr></thead>
<tbody>
${rows.map(row).join("\n")}
</tbody>
</table>`;
  return htmlPage(title, body, FILTER_SCRIPT);
}
