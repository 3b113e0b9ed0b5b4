/**
 * One non-streamed call to the run's model through the gateway (SSE_BASE_URL, SSE_API_KEY,
 * SSE_MODEL_NAME) on a wire the model speaks: the gateway's GET /v1/models/{id} lists them.
 * Every call names the plugin in `x-ssebench-plugin`; the gateway's ledger records it for calls
 * on its plugin socket only (docs/gateway.md), so an agent sending the header marks nothing.
 */
import type { Wire } from "../../../formats/models/model-types.ts";
import { type Usage, usageOfBody } from "../../../formats/models/model-usage.ts";
import { oracleMsg } from "./messages.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

export interface ModelEndpoint {
  baseUrl: string;
  key: string;
  model: string;
  plugin: string;
}

export interface Exchange {
  wire: Wire;
  text: string;
  usage: Usage;
  /** USD as the gateway reported it; null when it did not */
  cost: number | null;
}

export class ModelError extends Error {}

const WIRE_ORDER: Wire[] = ["anthropic", "chat", "responses", "gemini"];

function headers(ep: ModelEndpoint, wire: Wire | undefined): Record<string, string> {
  const h: Record<string, string> = { "content-type": "application/json", "x-ssebench-plugin": ep.plugin };
  if (wire === "anthropic") {
    h["x-api-key"] = ep.key;
    h["anthropic-version"] = "2023-06-01";
  } else if (wire === "gemini") h["x-goog-api-key"] = ep.key;
  else h.authorization = `Bearer ${ep.key}`;
  return h;
}

const url = (ep: ModelEndpoint, path: string) => `${ep.baseUrl.replace(/\/+$/, "")}/v1${path}`;

/** The first wire the gateway lists for the model (GET /v1/models/{id}), else chat. */
export async function chooseWire(ep: ModelEndpoint): Promise<Wire> {
  let res: Response;
  try {
    res = await fetch(url(ep, `/models/${encodeURIComponent(ep.model)}`), { headers: headers(ep, undefined) });
  } catch (e) {
    throw new ModelError(oracleMsg.unreachable(ep.baseUrl, e instanceof Error ? e.message : String(e)));
  }
  const body = obj(await res.json().catch(() => ({})));
  if (!res.ok) throw new ModelError(oracleMsg.refused(res.status, errorText(body)));
  const wires = Array.isArray(body.wires) ? body.wires : [];
  return WIRE_ORDER.find((w) => wires.includes(w)) ?? "chat";
}

function request(wire: Wire, model: string, system: string, prompt: string): { path: string; body: Json } {
  if (wire === "anthropic") return { path: "/messages", body: { model, max_tokens: 4096, system, messages: [{ role: "user", content: prompt }] } };
  if (wire === "chat") return { path: "/chat/completions", body: { model, messages: [{ role: "system", content: system }, { role: "user", content: prompt }] } };
  if (wire === "gemini") {
    const body = { systemInstruction: { parts: [{ text: system }] }, contents: [{ role: "user", parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: 4096 } };
    return { path: `/models/${encodeURIComponent(model)}:generateContent`, body };
  }
  return { path: "/responses", body: { model, instructions: system, input: prompt } };
}

function answerText(wire: Wire, body: Json): string {
  if (wire === "anthropic") return list(body.content).filter((b) => b.type === "text").map((b) => String(b.text ?? "")).join("");
  if (wire === "chat") {
    const content = obj(list(body.choices)[0]?.message).content;
    return typeof content === "string" ? content : "";
  }
  if (wire === "gemini") {
    const parts = list(obj(list(body.candidates)[0]?.content).parts);
    return parts.filter((p) => p.thought !== true && typeof p.text === "string").map((p) => String(p.text)).join("");
  }
  return list(body.output)
    .filter((i) => i.type === "message")
    .flatMap((i) => list(i.content))
    .filter((c) => c.type === "output_text")
    .map((c) => String(c.text ?? ""))
    .join("");
}

function errorText(body: Json): string {
  const e = body.error;
  if (typeof e === "string") return e;
  const m = obj(e).message;
  return typeof m === "string" ? m : JSON.stringify(body).slice(0, 500);
}

export async function ask(ep: ModelEndpoint, wire: Wire, system: string, prompt: string): Promise<Exchange> {
  const { path, body } = request(wire, ep.model, system, prompt);
  let res: Response;
  try {
    res = await fetch(url(ep, path), { method: "POST", headers: headers(ep, wire), body: JSON.stringify(body) });
  } catch (e) {
    throw new ModelError(oracleMsg.unreachable(ep.baseUrl, e instanceof Error ? e.message : String(e)));
  }
  const text = await res.text();
  let answer: Json;
  try {
    answer = obj(JSON.parse(text));
  } catch {
    throw new ModelError(oracleMsg.notJson(res.status, text.slice(0, 200)));
  }
  if (!res.ok) throw new ModelError(oracleMsg.refused(res.status, errorText(answer)));
  const cost = Number(res.headers.get("x-ssebench-cost"));
  return { wire, text: answerText(wire, answer), usage: usageOfBody(wire, answer), cost: res.headers.has("x-ssebench-cost") && Number.isFinite(cost) ? cost : null };
}
