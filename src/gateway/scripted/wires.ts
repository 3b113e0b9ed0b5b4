/**
 * The scripted model's answers on each wire: the non-streamed JSON body and the streamed events in
 * the order the real APIs send them (spec agents-models §4.2).
 */
import type { ScriptUsage } from "../../formats/models/model-script.ts";
import { type Answer, newId } from "./decide.ts";

type Json = Record<string, unknown>;
/** A streamed event: its SSE `event:` name (if the wire names events) and its data. */
export type WireEvent = { event?: string; data: Json | "[DONE]" };

const anthropicUsage = (u: ScriptUsage, output: number) => ({
  input_tokens: u.input,
  cache_creation_input_tokens: u.cache_write,
  cache_read_input_tokens: u.cache_read,
  output_tokens: output,
});

export function anthropicBody(model: string, a: Answer): Json {
  const content: Json[] = [];
  if (a.text) content.push({ type: "text", text: a.text });
  for (const c of a.calls) content.push({ type: "tool_use", id: c.id, name: c.name, input: JSON.parse(c.arguments) });
  return {
    id: newId("msg_"),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: a.calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: anthropicUsage(a.usage, a.usage.output),
  };
}

export function anthropicEvents(model: string, a: Answer): WireEvent[] {
  const ev = (event: string, data: Json): WireEvent => ({ event, data: { type: event, ...data } });
  const out: WireEvent[] = [
    ev("message_start", { message: { id: newId("msg_"), type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: anthropicUsage(a.usage, 1) } }),
  ];
  let index = 0;
  if (a.text) {
    out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const piece of pieces(a.text)) out.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const c of a.calls) {
    out.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } }));
    out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: c.arguments } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  out.push(ev("message_delta", { delta: { stop_reason: a.calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: a.usage.output } }));
  out.push(ev("message_stop", {}));
  return out;
}

const chatUsage = (u: ScriptUsage) => ({
  prompt_tokens: u.input + u.cache_read,
  completion_tokens: u.output,
  total_tokens: u.input + u.cache_read + u.output,
  prompt_tokens_details: { cached_tokens: u.cache_read },
});

export function chatBody(model: string, a: Answer): Json {
  const message: Json = { role: "assistant", content: a.text || null };
  if (a.calls.length > 0) message.tool_calls = a.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return {
    id: newId("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: a.calls.length > 0 ? "tool_calls" : "stop" }],
    usage: chatUsage(a.usage),
  };
}

export function chatEvents(model: string, a: Answer, includeUsage: boolean): WireEvent[] {
  const id = newId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Json, finish: string | null = null): WireEvent => ({
    data: { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const out: WireEvent[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of a.text ? pieces(a.text) : []) out.push(chunk({ content: piece }));
  a.calls.forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: c.arguments } }] }));
  });
  out.push(chunk({}, a.calls.length > 0 ? "tool_calls" : "stop"));
  if (includeUsage) out.push({ data: { id, object: "chat.completion.chunk", created, model, choices: [], usage: chatUsage(a.usage) } });
  out.push({ data: "[DONE]" });
  return out;
}

function responsesItems(a: Answer): Json[] {
  const items: Json[] = [];
  if (a.text) {
    items.push({ type: "message", id: newId("msg_"), status: "completed", role: "assistant", content: [{ type: "output_text", text: a.text, annotations: [] }] });
  }
  for (const c of a.calls) {
    items.push({ type: "function_call", id: newId("fc_"), call_id: c.id, name: c.name, ...(c.namespace ? { namespace: c.namespace } : {}), arguments: c.arguments, status: "completed" });
  }
  return items;
}

const responsesUsage = (u: ScriptUsage) => ({
  input_tokens: u.input + u.cache_read,
  input_tokens_details: { cached_tokens: u.cache_read },
  output_tokens: u.output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: u.input + u.cache_read + u.output,
});

function responseObject(model: string, id: string, status: string, output: Json[], usage: Json | null): Json {
  return { id, object: "response", created_at: Math.floor(Date.now() / 1000), status, model, output, usage };
}

export function responsesBody(model: string, a: Answer): Json {
  return responseObject(model, newId("resp_"), "completed", responsesItems(a), responsesUsage(a.usage));
}

export function responsesEvents(model: string, a: Answer): WireEvent[] {
  const id = newId("resp_");
  let seq = 0;
  const out: WireEvent[] = [];
  const ev = (type: string, data: Json) => out.push({ event: type, data: { type, sequence_number: seq++, ...data } });
  ev("response.created", { response: responseObject(model, id, "in_progress", [], null) });
  ev("response.in_progress", { response: responseObject(model, id, "in_progress", [], null) });
  const items = responsesItems(a);
  items.forEach((item, output_index) => {
    if (item.type === "message") {
      const text = (item.content as Json[])[0]?.text as string;
      const item_id = item.id;
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      const part = { type: "output_text", text: "", annotations: [] };
      ev("response.content_part.added", { item_id, output_index, content_index: 0, part });
      for (const delta of pieces(text)) ev("response.output_text.delta", { item_id, output_index, content_index: 0, delta });
      ev("response.output_text.done", { item_id, output_index, content_index: 0, text });
      ev("response.content_part.done", { item_id, output_index, content_index: 0, part: { ...part, text } });
    } else {
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
      ev("response.function_call_arguments.delta", { item_id: item.id, output_index, delta: item.arguments });
      ev("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
    }
    ev("response.output_item.done", { output_index, item });
  });
  ev("response.completed", { response: responseObject(model, id, "completed", items, responsesUsage(a.usage)) });
  return out;
}

/** Text split into a few deltas, as a real stream sends it. */
export function pieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(""));
  return out;
}
