/**
 * A run's dialog as a conversation: the prompt, the assistant's text, its thinking and tool calls
 * (arguments and results folded), with the model calls of the gateway's ledger (tokens, cost) and
 * the tool API's calls (`test_patch` and the checks, with their outcomes) set in between by time.
 * The dialog is the agent's own account (archive/dialog.jsonl, the contract's DialogEntry lines);
 * the ledger and the tool-API log are written by ssebench. All of it is shown escaped.
 */
import { type Json, num, str } from "./run-folder.ts";
import { badge, count, esc, usd } from "./page.ts";

/** Characters of one folded body shown; the rest is in the file. */
const BODY_MAX = 64 * 1024;
/** Items of one conversation shown. */
const ITEMS_MAX = 5000;

type Item = { time: string; html: string };

const folded = (summary: string, body: string, open = false) =>
  `<details${open ? " open" : ""}><summary>${summary}</summary><pre>${esc(body.length > BODY_MAX ? `${body.slice(0, BODY_MAX)}\n… (${count(body.length - BODY_MAX)} more characters in the file)` : body)}</pre></details>`;

const oneLine = (text: string, max = 140) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const tokensOf = (t: unknown) => {
  const o = t !== null && typeof t === "object" ? (t as Json) : {};
  const [i, out] = [num(o.in), num(o.out)];
  return i === null && out === null ? "" : `${count(i ?? 0)} in / ${count(out ?? 0)} out`;
};

/** The arguments of a tool call in one line: a command, a path, else the JSON. */
function argsLine(args: unknown): string {
  if (typeof args === "string") return oneLine(args);
  const o = args !== null && typeof args === "object" ? (args as Json) : {};
  for (const key of ["command", "cmd", "file_path", "path", "pattern", "query"]) {
    const v = o[key];
    if (typeof v === "string") return oneLine(`${key}: ${v}`);
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return oneLine(`${key}: ${v.join(" ")}`);
  }
  return oneLine(JSON.stringify(args) ?? "");
}

const isTestPatch = (name: string) => /(^|_|\/)test_patch$/.test(name);
const isCheckCall = (call: string) => /test_patch$|\/check\//.test(call);

/** The tool API's call log line as a sentence. */
function callText(c: Json): string {
  const checks = Array.isArray(c.checks) ? c.checks.filter((x) => typeof x === "string").join(", ") : "";
  const secs = num(c.seconds);
  return `${esc(str(c.call) ?? "?")} via ${esc(str(c.via) ?? "?")} · level ${esc(String(num(c.level) ?? "?"))}${checks ? ` · ran ${esc(checks)}` : ""}${secs === null ? "" : ` · ${secs.toFixed(1)} s`}`;
}

function outcomeBadge(c: Json): string {
  const outcome = str(c.outcome) ?? "?";
  return badge(outcome === "ok" ? "passed" : outcome === "none" ? "none" : outcome, "");
}

function modelCall(e: Json): string {
  const u = e.usage !== null && typeof e.usage === "object" ? (e.usage as Json) : {};
  const cache = (num(u.cache_read) ?? 0) + (num(u.cache_write) ?? 0);
  const status = num(e.status);
  const error = str(e.error);
  const who = e.caller === "plugin" ? `plugin ${esc(str(e.plugin) ?? "")} ` : "";
  return `<div class="item call"><b>${who}model call #${esc(String(num(e.seq) ?? "?"))}</b> · ${esc(str(e.model) ?? "?")} · ${count(num(u.input) ?? 0)} in · ${count(num(u.output) ?? 0)} out${cache ? ` · ${count(cache)} cache` : ""} · ${usd(num(e.cost) ?? 0)}${e.estimated === true ? " (estimated)" : ""} · ${((num(e.ms) ?? 0) / 1000).toFixed(1)} s${status !== null && status !== 200 ? ` · HTTP ${status}` : ""}${error ? ` · ${esc(oneLine(error))}` : ""}</div>`;
}

interface ToolEnd {
  status: string;
  text: string;
}

function toolItem(start: Json, end: ToolEnd | undefined, check: Json | undefined): string {
  const name = str(start.name) ?? "?";
  const testPatch = isTestPatch(name);
  const args = start.args;
  const argsText = typeof args === "string" ? args : (JSON.stringify(args, null, 2) ?? "");
  const parts = [
    `<div class="who"><b>tool call</b> ${esc(name)} ${end ? badge(end.status === "success" ? "ok" : end.status) : badge("running", "(no result)")}${check ? ` · check ${outcomeBadge(check)} <span class="muted">${callText(check)}</span>` : ""}</div>`,
    args === undefined ? "" : folded(`arguments <code class="args">${esc(argsLine(args))}</code>`, argsText),
    end ? folded(end.status === "error" ? "error" : `result <span class="muted">(${count(end.text.split("\n").length)} lines)</span>`, end.text) : "",
  ];
  return `<div class="item tool${testPatch ? " test_patch" : ""}">${parts.join("")}</div>`;
}

function dialogItems(entries: readonly Json[], checks: Json[]): Item[] {
  const items: Item[] = [];
  const ends = new Map<string, ToolEnd>();
  const started = new Set<string>();
  for (const e of entries) {
    const id = str(e.tool_id);
    if (e.type !== "tool" || id === null) continue;
    if (e.status === "running") started.add(id);
    else ends.set(id, { status: str(e.status) ?? "?", text: str(e.result) ?? str(e.error) ?? "" });
  }
  // The tool API logged each test_patch call; the dialog's test_patch calls are the same, in order.
  const testPatchCalls = checks.filter((c) => /test_patch$/.test(str(c.call) ?? ""));
  for (const e of entries) {
    const time = str(e.ts) ?? "";
    const add = (html: string) => items.push({ time, html });
    switch (e.type) {
      case "init": {
        const d = e.data !== null && typeof e.data === "object" ? (e.data as Json) : {};
        add(`<div class="item complete"><b>start</b> · agent ${esc(str(d.agent) ?? "?")} · model ${esc(str(d.model) ?? "?")} · in ${esc(str(d.cwd) ?? "?")}</div>`);
        break;
      }
      case "prompt": {
        const text = str(e.content) ?? "";
        add(`<div class="item prompt"><div class="who"><b>prompt</b></div>${folded(esc(oneLine(text)), text)}</div>`);
        break;
      }
      case "message": {
        const tokens = tokensOf(e.tokens);
        add(`<div class="item assistant"><div class="who"><b>assistant</b>${tokens ? ` · ${tokens}` : ""}</div><div class="text">${esc(str(e.content) ?? "")}</div></div>`);
        break;
      }
      case "thinking":
        add(`<div class="item thinking">${folded("<b>thinking</b>", str(e.content) ?? "")}</div>`);
        break;
      case "tool": {
        if (e.status !== "running") {
          // A result whose start is not in the dialog still shows.
          const id = str(e.tool_id);
          if (id !== null && started.has(id)) break;
        }
        const name = str(e.name) ?? "";
        const check = isTestPatch(name) && e.status === "running" ? testPatchCalls.shift() : undefined;
        if (check) checks.splice(checks.indexOf(check), 1);
        const end = e.status === "running" ? ends.get(str(e.tool_id) ?? "") : { status: str(e.status) ?? "?", text: str(e.result) ?? str(e.error) ?? "" };
        add(toolItem(e, end, check));
        break;
      }
      case "complete": {
        const message = str(e.message);
        add(`<div class="item complete"><b>end</b> · ${badge(str(e.status) ?? "?")} · ${esc(String(num(e.turns) ?? "?"))} turns · ${((num(e.duration_ms) ?? 0) / 1000).toFixed(1)} s${tokensOf(e.total_tokens) ? ` · ${tokensOf(e.total_tokens)}` : ""}${message ? folded("final message", message) : ""}</div>`);
        break;
      }
      default:
        // A line of another shape: a `{role, content}` message as text, anything else as its JSON.
        if (typeof e.role === "string" && typeof e.content === "string") add(`<div class="item ${e.role === "assistant" ? "assistant" : "prompt"}"><div class="who"><b>${esc(e.role)}</b></div><div class="text">${esc(e.content)}</div></div>`);
        else add(`<div class="item">${folded(esc(String(e.type ?? "entry")), JSON.stringify(e, null, 2))}</div>`);
    }
  }
  return items;
}

export interface ConversationInput {
  dialog: readonly Json[] | null;
  ledger: readonly Json[];
  toolCalls: readonly Json[];
}

/** Lists merged by time: each list keeps its own order, an item without a time stays behind the one before it. */
function mergeByTime(lists: Item[][]): Item[] {
  const at = lists.map(() => 0);
  const out: Item[] = [];
  for (;;) {
    let pick = -1;
    for (let l = 0; l < lists.length; l++) {
      const item = (lists[l] as Item[])[at[l] as number];
      if (!item) continue;
      const best = pick < 0 ? undefined : (lists[pick] as Item[])[at[pick] as number];
      if (!best || (item.time !== "" && best.time !== "" && item.time < best.time)) pick = l;
    }
    if (pick < 0) return out;
    out.push((lists[pick] as Item[])[at[pick] as number] as Item);
    at[pick] = (at[pick] as number) + 1;
  }
}

/** The merged conversation, or "" when the run has neither a dialog, nor model calls, nor tool calls. */
export function conversationHtml({ dialog, ledger, toolCalls }: ConversationInput): string {
  const checks = toolCalls.filter((c) => isCheckCall(str(c.call) ?? ""));
  const said = dialog ? dialogItems(dialog, checks) : [];
  const calls = ledger.map((e) => ({ time: str(e.time) ?? "", html: modelCall(e) }));
  const checked = checks.map((c) => ({ time: str(c.time) ?? "", html: `<div class="item check"><b>check</b> ${outcomeBadge(c)} ${callText(c)}</div>` }));
  const items = mergeByTime([said, calls, checked]);
  if (items.length === 0) return "";
  const shown = items.slice(0, ITEMS_MAX).map((i) => i.html);
  if (items.length > ITEMS_MAX) shown.push(`<p class="muted">… ${count(items.length - ITEMS_MAX)} more entries (see the files)</p>`);
  return `<div class="conv">${shown.join("\n")}</div>`;
}
