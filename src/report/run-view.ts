/**
 * One run, as the report's trial section and the viewer's trial page: the grade and its facts
 * (agent, model, mode, spend, tokens, timings), each check with its log, the patch as a diff, the
 * dialog as a conversation, the ledger of model calls, the tool API's calls and the run folder's
 * files. Input is a RunDetail (run-folder.ts, read as untrusted); everything is escaped here.
 */
import { conversationHtml } from "./conversation.ts";
import { diffHtml } from "./diff.ts";
import { badge, count, esc, usd } from "./page.ts";
import { type Head, type Json, num, type RunDetail, str } from "./run-folder.ts";

export interface RunLinks {
  /** a link to a file of the run folder (its path relative to it); none in the static report */
  file?: (path: string) => string;
}

const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

function headText(head: Head, what: string): string {
  return head.cut ? `${head.text}\n… (${what} is ${count(head.size)} bytes; the first ${count(head.text.length)} characters are shown)` : head.text;
}

const fileLink = (links: RunLinks, path: string, label = path) => (links.file ? `<a href="${esc(links.file(path))}">${esc(label)}</a>` : esc(label));

function facts(r: RunDetail, links: RunLinks): string {
  const s = r.summary;
  const tokens = obj(s.tokens);
  const agentRun = obj(s.agent_run);
  const prov = obj(s.provenance);
  const dataset = obj(prov.dataset);
  const timings = Object.entries(obj(s.timings_ms)).filter(([, v]) => typeof v === "number").map(([k, v]) => `${esc(k)} ${((v as number) / 1000).toFixed(1)} s`).join(", ");
  const rows: [string, string][] = [
    ["Task", esc(r.task)],
    ["Agent", `${esc(r.agent)}${str(obj(prov.agent).version) ? ` <span class="muted">version ${esc(str(obj(prov.agent).version) as string)}</span>` : ""}${str(agentRun.cli) ? ` <span class="muted">(${esc(str(agentRun.cli) as string)})</span>` : ""}`],
    ["Model", esc(r.model)],
    ["Mode", esc(r.mode)],
    ["Dataset", esc(`${str(dataset.name) ?? "?"}${str(dataset.version) ? `@${str(dataset.version)}` : ""}`)],
    ["Run", `${esc(r.runId)}${str(s.started_at) ? ` <span class="muted">started ${esc(str(s.started_at) as string)}</span>` : ""}`],
    ["Spend", `${usd(num(s.spend) ?? 0)} · ${count(num(s.model_calls) ?? 0)} model calls · ${count(num(s.tool_calls) ?? 0)} tool calls${num(agentRun.turns) !== null ? ` · ${num(agentRun.turns)} turns` : ""}`],
    ["Tokens", `${count(num(tokens.input) ?? 0)} in · ${count(num(tokens.output) ?? 0)} out · ${count(num(tokens.cache_read) ?? 0)} cache read · ${count(num(tokens.cache_write) ?? 0)} cache write`],
    ["Timings", timings || "-"],
  ];
  if (str(prov.job)) rows.push(["Job", esc(str(prov.job) as string)]);
  if (s.interrupted) rows.push(["Interrupted", esc(String(s.interrupted))]);
  if (!r.readable) rows.push(["Summary", `<span class="error">summary.json is missing or unreadable</span> (${fileLink(links, "summary.json")})`]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

function checksHtml(r: RunDetail, links: RunLinks): string {
  if (r.checks.length === 0) return '<p class="muted">No check ran.</p>';
  const rows = r.checks.map((c) => {
    const log = c.log ? headText(c.log, c.logPath ?? "the log") : "(no log)";
    const where = c.logPath && c.log ? ` · ${fileLink(links, c.logPath)}` : "";
    return `<details class="check"><summary>${esc(c.name)}: ${badge(c.status)} <span class="muted">exit ${esc(String(c.exitCode ?? "-"))}, ${esc(c.seconds === null ? "?" : String(c.seconds))} s${where}</span></summary><pre>${esc(log)}</pre></details>`;
  });
  const aside = r.setAside.length ? `<p class="muted">Set aside before grading: ${r.setAside.map((a) => `${esc(a.path)} (${esc(a.reason)})`).join(", ")}</p>` : "";
  return rows.join("\n") + aside;
}

function ledgerTable(entries: readonly Json[]): string {
  if (entries.length === 0) return "";
  const rows = entries.slice(0, 2000).map((e) => {
    const u = obj(e.usage);
    const cells = [String(num(e.seq) ?? ""), str(e.time) ?? "", `${str(e.caller) ?? ""}${str(e.plugin) ? ` ${str(e.plugin)}` : ""}`, str(e.model) ?? "", str(e.wire) ?? "", String(num(e.status) ?? "")];
    const nums = [num(u.input), num(u.output), num(u.cache_read), num(u.cache_write)].map((n) => count(n ?? 0));
    const money = [`${usd(num(e.cost) ?? 0)}${e.estimated === true ? "*" : ""}`, usd(num(e.spent) ?? 0), count(num(e.ms) ?? 0)];
    return `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join("")}${[...nums, ...money].map((c) => `<td class="num">${esc(c)}</td>`).join("")}<td>${esc(str(e.error) ?? "")}</td></tr>`;
  });
  const head = ["#", "time", "caller", "model", "wire", "HTTP"].map((h) => `<th>${h}</th>`).join("") + ["in", "out", "cache read", "cache write", "cost", "spent", "ms"].map((h) => `<th class="num">${h}</th>`).join("") + "<th>error</th>";
  const more = entries.length > 2000 ? `<p class="muted">… ${count(entries.length - 2000)} more calls</p>` : "";
  return `<table class="ledger"><tr>${head}</tr>${rows.join("")}</table>${more}`;
}

function toolCallsTable(entries: readonly Json[]): string {
  if (entries.length === 0) return "";
  const rows = entries.slice(0, 2000).map((c) => {
    const checks = Array.isArray(c.checks) ? c.checks.filter((x) => typeof x === "string").join(", ") : "";
    return `<tr><td>${esc(str(c.time) ?? "")}</td><td>${esc(str(c.via) ?? "")}</td><td>${esc(str(c.call) ?? "")}</td><td class="num">${esc(String(num(c.level) ?? ""))}</td><td>${esc(checks)}</td><td>${badge(str(c.outcome) ?? "?")}</td><td class="num">${esc(String(num(c.http_status) ?? ""))}</td><td class="num">${esc(String(num(c.seconds) ?? ""))}</td></tr>`;
  });
  return `<table class="tool-calls"><tr><th>time</th><th>via</th><th>call</th><th class="num">level</th><th>checks</th><th>outcome</th><th class="num">HTTP</th><th class="num">s</th></tr>${rows.join("")}</table>`;
}

function filesHtml(r: RunDetail, links: RunLinks): string {
  if (r.files.length === 0) return '<p class="muted">No files.</p>';
  const items = r.files.map((f) => `<li>${fileLink(links, f.path)} <span class="muted">${count(f.size)} B</span></li>`);
  return `<ul class="files">${items.join("")}</ul>${r.filesCut ? '<p class="muted">… more files not listed</p>' : ""}`;
}

/** The run's sections (no page shell); `h` is the heading level of the sections' titles. */
export function runHtml(r: RunDetail, links: RunLinks = {}, h = 3): string {
  const p = obj(r.summary.patch_result);
  const error = r.errorType ? ` (${esc(r.errorType)})` : "";
  const hx = (t: string) => `<h${h}>${t}</h${h}>`;
  const conversation = conversationHtml({ dialog: r.dialog?.entries ?? null, ledger: r.ledger?.entries ?? [], toolCalls: r.toolCalls });
  const dialogCut = r.dialog?.head.cut ? `<p class="muted">${esc(r.dialog.name)} is ${count(r.dialog.head.size)} bytes: only its first ${count(r.dialog.head.text.length)} characters are shown.</p>` : "";
  const parts = [
    `<p>Grade: ${badge(r.status)}${error}${r.errorMsg ? ` — ${esc(r.errorMsg)}` : ""}</p>`,
    str(p.error_log) ? `<details><summary>error log</summary><pre>${esc(str(p.error_log) as string)}</pre></details>` : "",
    r.oracle ? `<p>Oracle: <b>${esc(r.oracle.verdict)}</b>${r.oracle.model ? ` (${esc(r.oracle.model)})` : ""}</p><pre>${esc(r.oracle.reasons)}</pre>` : "",
    facts(r, links),
    hx("Checks"),
    checksHtml(r, links),
    hx(`Patch${r.patch ? ` <span class="muted">${fileLink(links, r.patch.name)}</span>` : ""}`),
    r.patch ? `${diffHtml(r.patch.head.text)}${r.patch.head.cut ? `<p class="muted">The patch is ${count(r.patch.head.size)} bytes: only its start is shown.</p>` : ""}` : "<p>No patch.</p>",
    hx(`Conversation${r.dialog ? ` <span class="muted">${fileLink(links, r.dialog.name)}</span>` : ""}`),
    conversation ? dialogCut + conversation : '<p class="muted">No dialog, model call or tool call was recorded.</p>',
    r.ledger && r.ledger.entries.length ? `${hx("Model calls (ledger)")}${ledgerTable(r.ledger.entries)}` : "",
    r.toolCalls.length ? `${hx("Tool API calls")}${toolCallsTable(r.toolCalls)}` : "",
    hx("Files"),
    filesHtml(r, links),
  ];
  return parts.filter(Boolean).join("\n");
}
