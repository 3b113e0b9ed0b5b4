/**
 * A task's HTML page (`/html/tasks/{id}`): what the vulnerability is (type, sanitizer, the issue
 * and crash report text, the bug description), the checks that grade a fix, and the case image with
 * its pinning in plain words. No script runs on it (its CSP says so); every value is escaped.
 */
import { escapeHtml, htmlPage, linkIfWeb } from "./html.ts";
import type { CaseImageRef, TaskSummary } from "./image-refs.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";

export interface TaskPageInput {
  task: TaskSummary;
  metadata: TaskMetadata;
  files: number;
  image: CaseImageRef;
  /** report path → text, for the reports the catalog has the text of */
  reports: ReadonlyMap<string, string>;
  dataset: string;
}

export const CHECK_WORDS: Record<string, string> = {
  build: "the project builds with the fix applied (the task's build script exits 0)",
  poc: "each proof of concept is run against the fixed build and must no longer trigger the vulnerability",
  function_test: "the project's own tests still pass with the fix",
  intent_test: "hidden tests, never shown to the agent, check that the fix does what the task's own fix does",
};

/** The case image's pinning, as a sentence (also the `pinned` words of `tasks show`). */
export function pinningWords(image: CaseImageRef): string {
  if (image.pinned) {
    return `Pinned: pulled by its digest ${image.digest}, recorded in the dataset's images lock, so every run gets exactly the image that was built and verified.`;
  }
  const why = image.warning
    ? "the images lock has an entry for it, but that image was built from other files than the catalog lists"
    : "the images lock has no entry for it";
  return `Not pinned: ${why}, so it is pulled by the tag ${image.tagRef}, which whoever can push that tag may change.`;
}

function field(name: string, value: string | null | undefined, html = false): string {
  if (value === null || value === undefined || value === "") return "";
  return `<dt>${name}</dt><dd>${html ? value : escapeHtml(value)}</dd>\n`;
}

function statement(m: TaskMetadata, reports: ReadonlyMap<string, string>): string {
  const d = m.task_description;
  const parts: string[] = [];
  if (d.issue?.trim()) parts.push(`<h3>Issue</h3>\n<pre>${escapeHtml(d.issue)}</pre>`);
  for (const path of d.crash_report ?? []) {
    const text = reports.get(path);
    const body = text === undefined ? `<p class="muted">The text is not in this catalog: it is the file sse/${escapeHtml(path)} of the task folder.</p>` : `<pre>${escapeHtml(text)}</pre>`;
    parts.push(`<h3>Crash report <code>${escapeHtml(path)}</code></h3>\n${body}`);
  }
  if (d.bug_description?.trim()) parts.push(`<h3>Bug description</h3>\n<pre>${escapeHtml(d.bug_description)}</pre>`);
  return parts.join("\n") || '<p class="muted">No statement.</p>';
}

export function renderTaskPage({ task, metadata: m, files, image, reports, dataset }: TaskPageInput): string {
  const id = encodeURIComponent(task.id);
  const checks = task.checks.map((c) => `<li><b>${escapeHtml(c)}</b>: ${escapeHtml(CHECK_WORDS[c] ?? "a check of this task")}</li>`).join("\n");
  const refs = (m.reference ?? []).map(linkIfWeb).join("<br>");
  const body = `<p><a href="/">← all tasks of ${escapeHtml(dataset)}</a> · JSON: <a href="/tasks/${id}">task</a>, <a href="/tasks/${id}/metadata">metadata</a></p>
<h1>${escapeHtml(task.id)}</h1>
<dl>
${field("Vulnerability type", m.type)}${field("Sanitizer", m.sanitizer)}${field("Language", task.language)}${field("Project", task.project)}${field("Repository", linkIfWeb(task.repository), true)}${field("Source in the image", m.source)}${field("Originality", m.originality)}${field("References", refs, true)}</dl>
<h2>Statement</h2>
<p class="muted">What the agent is given to work from.</p>
${statement(m, reports)}
<h2>Checks</h2>
<ul>
${checks || "<li>none</li>"}
</ul>
<h2>Image</h2>
<dl>
${field("Case image", image.ref)}${field("Base image", task.base)}${field("Architectures", task.arch.join(", "))}${field("Files", `${files} in the task folder`)}</dl>
<p>${escapeHtml(pinningWords(image))}</p>`;
  return htmlPage(`${task.id} · ssebench catalog`, body);
}
