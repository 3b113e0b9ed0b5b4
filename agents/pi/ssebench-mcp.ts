/**
 * A pi extension that offers the tools of an MCP server (Streamable HTTP, JSON replies) as pi
 * tools: pi 0.73 has no MCP client of its own. Loaded by pi (`-e`) from the agent's files; it
 * reads the server from SSE_MCP_URL, lists the server's tools when pi starts, and registers each
 * as `mcp__ssebench__<tool>` with the server's input schema (pi validates plain JSON Schema). A
 * call is one `tools/call` request with no time limit of its own (the agent's time limit bounds
 * it); an error result of the tool is an error result in pi.
 * Self-contained (pi loads it with jiti): only Node's own modules.
 */
import { connect } from "node:net";

type Json = Record<string, unknown>;

interface PiToolResult {
  content: { type: "text"; text: string }[];
  details: Json;
}
interface PiTool {
  name: string;
  label: string;
  description: string;
  parameters: Json;
  execute: (toolCallId: string, params: Json, signal?: AbortSignal) => Promise<PiToolResult>;
}
/** The part of pi's ExtensionAPI this extension uses. */
export interface PiExtensionApi {
  registerTool: (tool: PiTool) => void;
}

export const SERVER = "ssebench";

let nextId = 1;

/**
 * An HTTP/1.1 POST over a plain socket: Bun's fetch gives up on an answer that takes over 5
 * minutes (its default idle timeout), and a test_patch that builds and tests may take longer.
 */
export function post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || 80) });
    const chunks: Buffer[] = [];
    const abort = () => socket.destroy(new Error("The tool call was aborted"));
    signal?.addEventListener("abort", abort, { once: true });
    socket.on("connect", () => {
      const head = Object.entries({ host: u.host, "content-length": String(Buffer.byteLength(body)), connection: "close", ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
      // Not end(): a half-closed connection is a gone client to the server, which drops the call.
      socket.write(`POST ${u.pathname}${u.search} HTTP/1.1\r\n${head.join("")}\r\n${body}`);
    });
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (e) => {
      signal?.removeEventListener("abort", abort);
      reject(e);
    });
    socket.on("close", () => {
      signal?.removeEventListener("abort", abort);
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf("\r\n\r\n");
      if (split < 0) return reject(new Error(`${url}: no HTTP answer`));
      const [statusLine = "", ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
      const h: Record<string, string> = {};
      for (const line of lines) h[line.slice(0, line.indexOf(":")).trim().toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      let payload: Buffer = raw.subarray(split + 4);
      if (/chunked/i.test(h["transfer-encoding"] ?? "")) payload = unchunk(payload);
      resolve({ status: Number(statusLine.split(" ")[1]), headers: h, body: payload.toString("utf8") });
    });
  });
}

/** A chunked body's data. */
function unchunk(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = b.indexOf("\r\n", at);
    const size = eol < 0 ? 0 : Number.parseInt(b.subarray(at, eol).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** One JSON-RPC request to the server; its `result`, or an Error with the server's message. */
export async function rpc(url: string, method: string, params: Json, signal?: AbortSignal): Promise<Json> {
  const res = await post(url, JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }), { "content-type": "application/json", accept: "application/json, text/event-stream" }, signal);
  // A server may answer in an event stream: the reply is its last `data:` line.
  const body = (res.headers["content-type"] ?? "").includes("text/event-stream") ? (res.body.split("\n").filter((l) => l.startsWith("data:")).at(-1)?.slice(5) ?? "") : res.body;
  let reply: Json;
  try {
    reply = JSON.parse(body) as Json;
  } catch {
    throw new Error(`MCP server ${url} answered ${method} with HTTP ${res.status}: ${res.body.slice(0, 200)}`);
  }
  const error = reply.error as Json | undefined;
  if (error) throw new Error(`MCP server ${url} refused ${method}: ${String(error.message)}`);
  return (reply.result ?? {}) as Json;
}

/** The text of a `tools/call` result's content. */
function resultText(result: Json): string {
  const content = Array.isArray(result.content) ? (result.content as Json[]) : [];
  return content.map((c) => (c.type === "text" ? String(c.text) : JSON.stringify(c))).join("\n");
}

export default async function ssebenchMcp(pi: PiExtensionApi, env: Record<string, string | undefined> = process.env): Promise<void> {
  const url = env.SSE_MCP_URL;
  if (!url) throw new Error("SSE_MCP_URL is not set: no MCP server to take tools from");
  await rpc(url, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "ssebench-pi-mcp", version: "1" } });
  const listed = await rpc(url, "tools/list", {});
  for (const tool of (listed.tools ?? []) as Json[]) {
    const name = String(tool.name);
    pi.registerTool({
      name: `mcp__${SERVER}__${name}`,
      label: `${SERVER}: ${name}`,
      description: String(tool.description ?? ""),
      parameters: (tool.inputSchema as Json | undefined) ?? { type: "object", properties: {} },
      async execute(_toolCallId, params, signal) {
        const result = await rpc(url, "tools/call", { name, arguments: params ?? {} }, signal);
        const text = resultText(result);
        if (result.isError === true) throw new Error(text || `${name} failed`);
        return { content: [{ type: "text", text }], details: {} };
      },
    });
  }
}
