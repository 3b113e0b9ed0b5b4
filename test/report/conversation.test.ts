/**
 * The conversation: dialog entries in their order, model calls and check calls set between them by
 * time, a test_patch call paired with the tool API's log line, everything escaped.
 */
import { expect, test } from "bun:test";
import { conversationHtml } from "../../src/report/conversation.ts";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const kinds = (html: string) => [...html.matchAll(/<div class="item( [a-z_ ]+)?">/g)].map((m) => (m[1] ?? "").trim() || "entry");
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();

test("model and check calls fall in by time; test_patch gets its logged outcome; a shell agent's HTTP check stands alone", () => {
  const dialog = [
    { ts: at(0), type: "prompt", content: "Fix <it>" },
    { ts: at(2), type: "message", role: "assistant", content: "Checking.", tokens: { in: 10, out: 2 } },
    { ts: at(3), type: "tool", tool_id: "a", name: "test_patch", status: "running", args: {} },
    { ts: at(9), type: "tool", tool_id: "a", name: "test_patch", status: "error", error: "build failed" },
    { ts: at(10), type: "complete", status: "error", turns: 1, duration_ms: 10_000, total_tokens: { in: 10, out: 2 } },
  ];
  const ledger = [{ seq: 1, time: at(1), model: "m", usage: { input: 10, output: 2, cache_read: 0, cache_write: 0 }, cost: 0.5, ms: 900, status: 200, error: null }];
  const toolCalls = [
    { time: at(4), via: "mcp", call: "test_patch", level: 2, checks: ["build"], outcome: "failed", http_status: 200, seconds: 4 },
    { time: at(9.5), via: "http", call: "POST /sse/v1/check/build", level: 2, checks: ["build"], outcome: "failed", http_status: 200, seconds: 1 },
    { time: at(9.6), via: "http", call: "GET /sse/v1/diff", level: 2, checks: [], outcome: "ok", http_status: 200, seconds: 0 },
  ];
  const html = conversationHtml({ dialog, ledger, toolCalls });
  expect(kinds(html)).toEqual(["prompt", "call", "assistant", "tool test_patch", "check", "complete"]);
  expect(text(html)).toContain("tool call test_patch error · check failed test_patch via mcp · level 2 · ran build · 4.0 s");
  expect(text(html)).toContain("check failed POST /sse/v1/check/build via http");
  expect(text(html)).not.toContain("GET /sse/v1/diff");
  expect(text(html)).toContain("model call #1 · m · 10 in · 2 out · $0.5000 · 0.9 s");
  expect(html).toContain("Fix &lt;it&gt;");
});

test("a result whose call is missing, lines of another shape, and nothing at all", () => {
  const html = conversationHtml({
    dialog: [
      { type: "tool", tool_id: "z", name: "bash", status: "success", result: "ok" },
      { role: "user", content: "hi <b>" },
      { type: "weird", data: 1 },
    ],
    ledger: [],
    toolCalls: [],
  });
  expect(kinds(html)).toEqual(["tool", "prompt", "entry"]);
  expect(html).toContain("hi &lt;b&gt;");
  expect(conversationHtml({ dialog: null, ledger: [], toolCalls: [] })).toBe("");
});
