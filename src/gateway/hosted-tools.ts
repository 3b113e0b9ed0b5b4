/**
 * Hosted server tools run at the model vendor and reach the outside world (web search, web fetch,
 * code execution, remote MCP): with restricted egress nothing may leave through the vendor either,
 * so they are dropped from every request. A hosted tool_search is kept only for the vendor that
 * hosts it (for any other upstream it is an unknown tool). Types and parameter names are compared
 * without case: a vendor that reads them loosely must not get a hosted tool through. The gemini
 * wire keeps function declarations only (its hosted tools are keys of a tool object).
 */
import type { Provider, Wire } from "../formats/models/model-types.ts";

type Json = Record<string, unknown>;

const OPENAI_HOSTED = /^(web_search|web_fetch|file_search|code_interpreter|image_generation|mcp$|computer_use)/;
const ANTHROPIC_HOSTED = /^(web_search|web_fetch|code_execution|bash_code_execution|text_editor_code_execution|mcp_toolset)/;

function hosted(wire: Wire, provider: Provider, tool: unknown): boolean {
  const t = typeof (tool as Json)?.type === "string" ? ((tool as Json).type as string).trim().toLowerCase() : "";
  if (wire === "anthropic") {
    if (t.startsWith("tool_search_tool")) return provider !== "anthropic";
    return ANTHROPIC_HOSTED.test(t);
  }
  if (t === "tool_search") return provider !== "openai";
  if (wire === "chat") return t !== "" && t !== "function" && t !== "custom";
  return OPENAI_HOSTED.test(t);
}

/** A gemini Tool's key for function declarations, in either spelling and any case. */
const GEMINI_FUNCTIONS = "functiondeclarations";
const geminiKey = (key: string) => key.replaceAll("_", "").toLowerCase();

/**
 * Gemini tools are objects whose keys name the kind (functionDeclarations, googleSearch,
 * codeExecution, urlContext, …; several may share one object): only function declarations stay.
 * With none left, the tool config goes too (it may require a function call).
 */
function stripGeminiTools(body: Json): string[] {
  const removed: string[] = [];
  for (const key of Object.keys(body).filter((k) => geminiKey(k) === "tools")) {
    const tools = body[key];
    if (!Array.isArray(tools)) continue;
    const kept: Json[] = [];
    for (const tool of tools) {
      if (tool === null || typeof tool !== "object" || Array.isArray(tool)) {
        removed.push(String(tool));
        continue;
      }
      const functions = Object.entries(tool as Json).filter(([k]) => geminiKey(k) === GEMINI_FUNCTIONS);
      for (const k of Object.keys(tool as Json)) if (geminiKey(k) !== GEMINI_FUNCTIONS) removed.push(k);
      if (functions.length > 0) kept.push(Object.fromEntries(functions));
    }
    if (kept.length > 0) body[key] = kept;
    else delete body[key];
  }
  if (removed.length > 0 && !Object.keys(body).some((k) => geminiKey(k) === "tools")) {
    for (const key of Object.keys(body)) if (geminiKey(key) === "toolconfig") delete body[key];
  }
  return removed;
}

/** Removes hosted tools (and what refers to them) from a request body in place; returns their types. */
export function stripHostedTools(wire: Wire, provider: Provider, body: Json): string[] {
  if (wire === "gemini") return stripGeminiTools(body);
  const removed: string[] = [];
  if (Array.isArray(body.tools)) {
    const kept = body.tools.filter((tool) => {
      if (!hosted(wire, provider, tool)) return true;
      removed.push(String((tool as Json).type));
      return false;
    });
    body.tools = kept;
    if (kept.length === 0 && removed.length > 0) {
      delete body.tools;
      delete body.tool_choice;
      delete body.parallel_tool_calls;
    }
  }
  const choice = body.tool_choice as Json | undefined;
  if (choice && typeof choice === "object" && typeof choice.type === "string" && hosted(wire, provider, choice)) {
    body.tool_choice = wire === "anthropic" ? { type: "auto" } : "auto";
  }
  const params = wire === "anthropic" ? ["mcp_servers", "container"] : wire === "chat" ? ["web_search_options"] : [];
  for (const key of Object.keys(body)) {
    if (params.includes(key.toLowerCase())) {
      removed.push(key);
      delete body[key];
    }
  }
  return removed;
}
