/**
 * What the scripted model answers: the turn is picked by the number of tool results in the request
 * (each call of a turn needs one result before the next turn), each call's tool by the tools the
 * request offers (the first offered of the names listed), with the namespace of a Responses
 * namespace tool (codex's MCP tools). A request offering no tools gets the script's `no_tools` text.
 */
import { randomBytes } from "node:crypto";
import type { Wire } from "../../formats/models/model-types.ts";
import type { ModelScript, ScriptUsage } from "../../formats/models/model-script.ts";

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === "object") as Json[]) : []);

export interface Answer {
  text: string;
  calls: { id: string; name: string; namespace?: string; arguments: string }[];
  usage: ScriptUsage;
}

/** Offered tool name → its namespace ("" for none). */
export function offeredTools(wire: Wire, body: Json): Map<string, string> {
  const offered = new Map<string, string>();
  if (wire === "gemini") {
    for (const tool of arr(body.tools)) {
      for (const fn of arr(tool.functionDeclarations ?? tool.function_declarations)) if (typeof fn.name === "string") offered.set(fn.name, "");
    }
    return offered;
  }
  for (const tool of arr(body.tools)) {
    if (wire === "chat") {
      const name = (tool.function as Json | undefined)?.name;
      if (typeof name === "string") offered.set(name, "");
    } else if (tool.type === "namespace" && typeof tool.name === "string") {
      for (const inner of arr(tool.tools)) if (typeof inner.name === "string" && !offered.has(inner.name)) offered.set(inner.name, tool.name);
    } else if (typeof tool.name === "string") offered.set(tool.name, "");
  }
  return offered;
}

export function toolResults(wire: Wire, body: Json): number {
  if (wire === "gemini") return arr(body.contents).reduce((sum, c) => sum + arr(c.parts).filter((p) => p.functionResponse ?? p.function_response).length, 0);
  if (wire === "chat") return arr(body.messages).filter((m) => m.role === "tool").length;
  if (wire === "responses") return arr(body.input).filter((i) => typeof i.type === "string" && i.type.endsWith("_call_output")).length;
  return arr(body.messages).reduce((sum, m) => sum + arr(m.content).filter((b) => b.type === "tool_result").length, 0);
}

export const newId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

export function decide(script: ModelScript, wire: Wire, body: Json): Answer {
  const offered = offeredTools(wire, body);
  if (offered.size === 0) return { text: script.no_tools, calls: [], usage: script.usage };
  const results = toolResults(wire, body);
  let before = 0;
  let turn = script.turns[script.turns.length - 1] as ModelScript["turns"][number];
  for (const t of script.turns) {
    if (before >= results) {
      turn = t;
      break;
    }
    before += t.calls.length;
  }
  const calls: Answer["calls"] = [];
  for (const call of turn.calls) {
    const name = (Array.isArray(call.tool) ? call.tool : [call.tool]).find((n) => offered.has(n));
    if (name === undefined) continue;
    const namespace = offered.get(name) || undefined;
    calls.push({ id: newId(wire === "anthropic" ? "toolu_" : "call_"), name, ...(namespace ? { namespace } : {}), arguments: JSON.stringify(call.arguments) });
  }
  const text = turn.text ?? (calls.length === 0 ? script.no_tools : "");
  return { text, calls, usage: turn.usage ?? script.usage };
}
