/**
 * One trial's section of the report: grade, checks with their logs, the patch as a diff, the
 * agent's dialog.jsonl as a transcript when present, timings. Everything comes from a run folder
 * the agent's container wrote: read as untrusted (results/load.ts readCapped: regular files, no
 * links, capped) and HTML-escaped.
 */
import { join, normalize } from "node:path";
import { ORACLE_REVIEW, VERDICTS } from "../formats/run/oracle-review.ts";
import { readCapped, REVIEW_MAX_BYTES } from "../results/load.ts";

const LOG_MAX = 256 * 1024;
const PATCH_MAX = 1024 * 1024;
const DIALOG_MAX = 2 * 1024 * 1024;

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

function readOrNull(path: string, max: number): string | null {
  try {
    return readCapped(path, max);
  } catch {
    return null;
  }
}

/** A path the summary names, only if it stays inside the run folder. */
function inside(runDir: string, rel: unknown): string | null {
  if (typeof rel !== "string" || rel.startsWith("/")) return null;
  const n = normalize(rel);
  return n.startsWith("..") ? null : join(runDir, n);
}

function diffHtml(patch: string): string {
  return patch
    .split("\n")
    .map((l) => {
      const cls = l.startsWith("+++") || l.startsWith("---") ? "h" : l.startsWith("+") ? "a" : l.startsWith("-") ? "d" : l.startsWith("@@") ? "u" : "";
      return cls ? `<span class="${cls}">${esc(l)}</span>` : esc(l);
    })
    .join("\n");
}

function dialogHtml(text: string): string {
  const turns: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    const role = typeof o.role === "string" ? o.role : typeof o.type === "string" ? o.type : "entry";
    const content = typeof o.content === "string" ? o.content : JSON.stringify(o.content ?? o, null, 2);
    turns.push(`<div class="turn"><b>${esc(role)}</b><pre>${esc(content)}</pre></div>`);
  }
  return turns.join("\n");
}

/** The oracle plugin's review (<run dir>/oracle-review.json, root's in the run), when it has a verdict. */
function oracleReview(runDir: string): { verdict: string; model: string; reasons: string } | null {
  const text = readOrNull(join(runDir, ORACLE_REVIEW), REVIEW_MAX_BYTES);
  try {
    const r = text ? JSON.parse(text) : null;
    const verdict = VERDICTS.find((v) => v === r?.verdict);
    if (r?.status !== "ok" || !verdict) return null;
    return { verdict, model: typeof r.model === "string" ? r.model : "", reasons: typeof r.reasons === "string" ? r.reasons : "" };
  } catch {
    return null;
  }
}

export function trialSection(id: string, title: string, runDir: string | null): string {
  if (!runDir) return `<section id="${id}"><h3>${esc(title)}</h3><p>No run folder (the trial failed before it had one).</p></section>`;
  const text = readOrNull(join(runDir, "summary.json"), 16 * 1024 * 1024);
  let s: Record<string, any> = {};
  try {
    s = text ? JSON.parse(text) : {};
  } catch {
    s = {};
  }
  const p = s.patch_result ?? {};
  const checks = Array.isArray(p.checks) ? p.checks : [];
  const rows = checks
    .map((c: Record<string, unknown>) => {
      const logPath = inside(runDir, c.log);
      const log = logPath ? readOrNull(logPath, LOG_MAX) : null;
      const name = `${String(c.check ?? "?")}${c.poc ? ` ${String(c.poc)}` : ""}${c.tree === "original" ? " (original tree)" : ""}`;
      return `<details><summary class="${esc(String(c.status ?? ""))}">${esc(name)}: ${esc(String(c.status ?? "?"))} (exit ${esc(String(c.exit_code ?? "-"))}, ${esc(String(c.duration_seconds ?? "?"))} s)</summary><pre>${esc(log ?? "(no log)")}</pre></details>`;
    })
    .join("\n");
  const patch = readOrNull(join(runDir, "final.patch"), PATCH_MAX) ?? readOrNull(join(runDir, "prediction.patch"), PATCH_MAX);
  const dialog = readOrNull(join(runDir, "dialog.jsonl"), DIALOG_MAX) ?? readOrNull(join(runDir, "archive", "dialog.jsonl"), DIALOG_MAX);
  const review = oracleReview(runDir);
  const timings = s.timings_ms && typeof s.timings_ms === "object" ? Object.entries(s.timings_ms).map(([k, v]) => `${esc(k)} ${esc(String(v))} ms`).join(", ") : "";
  return [
    `<section id="${id}"><h3>${esc(title)}</h3>`,
    `<p>Grade: <b class="${esc(String(p.status ?? ""))}">${esc(String(p.status ?? "?"))}</b>${p.error_msg ? ` — ${esc(String(p.error_msg))}` : ""}</p>`,
    review ? `<p>Oracle: <b>${esc(review.verdict)}</b>${review.model ? ` (${esc(review.model)})` : ""}</p><pre>${esc(review.reasons)}</pre>` : "",
    `<p>Timings: ${timings || "-"}</p>`,
    `<h4>Checks</h4>${rows || "<p>No check ran.</p>"}`,
    `<h4>Patch</h4>${patch ? `<pre class="diff">${diffHtml(patch)}</pre>` : "<p>No patch.</p>"}`,
    dialog ? `<h4>Dialog</h4>${dialogHtml(dialog)}` : "",
    "</section>",
  ].join("\n");
}
