/**
 * The HTML page at `/`: one table row per task (id linking to its JSON, language, project, checks,
 * and whether its case image is pinned by digest or named by the dataset's tag). No scripts, and
 * every value HTML-escaped: ids, projects and versions come from the manifest.
 */
import type { CaseImageRef, TaskSummary } from "./image-refs.ts";
import type { Manifest } from "../formats/manifest-types.ts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

function row(task: TaskSummary, image: CaseImageRef | undefined): string {
  const href = `/tasks/${encodeURIComponent(task.id)}`;
  const naming = image?.pinned ? `pinned ${image.digest?.slice(0, 19)}…` : "tagged";
  return [
    "<tr>",
    `<td><a href="${escapeHtml(href)}">${escapeHtml(task.id)}</a></td>`,
    `<td>${escapeHtml(task.language)}</td>`,
    `<td>${escapeHtml(task.project)}</td>`,
    `<td>${escapeHtml(task.checks.join(", "))}</td>`,
    `<td title="${escapeHtml(task.image)}">${escapeHtml(naming)}</td>`,
    "</tr>",
  ].join("");
}

export function renderIndexPage(
  manifest: Manifest,
  tasks: readonly TaskSummary[],
  images: ReadonlyMap<string, CaseImageRef>,
  hasLock: boolean,
): string {
  const title = `${manifest.dataset} ${manifest.version}`;
  const links = ['<a href="/tasks">/tasks</a>', '<a href="/manifest.json">/manifest.json</a>'];
  if (hasLock) links.push('<a href="/images.lock.json">/images.lock.json</a>');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ssebench catalog: ${escapeHtml(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; }
</style>
</head>
<body>
<h1>ssebench catalog: ${escapeHtml(title)}</h1>
<p>${tasks.length} tasks. JSON: ${links.join(", ")}</p>
<table id="tasks">
<thead><tr><th>ID</th><th>Language</th><th>Project</th><th>Checks</th><th>Image</th></tr></thead>
<tbody>
${tasks.map((t) => row(t, images.get(t.id))).join("\n")}
</tbody>
</table>
</body>
</html>
`;
}
