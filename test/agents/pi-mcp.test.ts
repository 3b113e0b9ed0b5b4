/**
 * pi's MCP extension (agents/pi/ssebench-mcp.ts) against the entrypoint's real MCP handler
 * (src/runtime/tool-api/mcp.ts) on 127.0.0.1, the ToolService behind it mocked: the server's
 * tools are registered under pi's MCP names with the server's schema, a call returns the server's
 * text and is logged by the server, and answers that are not MCP are one clear error.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ssebenchMcp, { type PiExtensionApi, post } from "../../agents/pi/ssebench-mcp.ts";
import { CallLog } from "../../src/runtime/tool-api/calls.ts";
import { level } from "../../src/runtime/tool-api/levels.ts";
import { handleMcp, TOOL_DESCRIPTION } from "../../src/runtime/tool-api/mcp.ts";
import type { ToolService } from "../../src/runtime/tool-api/service.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-pi-mcp-");
const callsFile = join(dir.path, "tool-calls.jsonl");
let patches = 0;
// A check takes a while: the client must keep its side open until the answer comes.
const service = { testPatch: async () => (await Bun.sleep(300), { outcome: "passed", checks: ["build"], text: `test_patch result ${++patches}` }) } as unknown as ToolService;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/mcp") return handleMcp(req, { service, level: level(2), calls: new CallLog(callsFile) });
    if (path === "/chunked") return new Response(new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode("ab")), c.enqueue(new TextEncoder().encode("cd")), c.close()) }));
    return new Response("not here", { status: 404 });
  },
});
afterAll(() => {
  server.stop(true);
  dir.cleanup();
});
const base = `http://127.0.0.1:${server.port}`;

type Registered = Parameters<PiExtensionApi["registerTool"]>[0];
async function load(url: string): Promise<Registered[]> {
  const tools: Registered[] = [];
  await ssebenchMcp({ registerTool: (t) => tools.push(t) }, { SSE_MCP_URL: url });
  return tools;
}

describe("pi's MCP extension", () => {
  test("registers the server's test_patch as mcp__ssebench__test_patch with its description and schema", async () => {
    const tools = await load(`${base}/mcp`);
    expect(tools.map((t) => t.name)).toEqual(["mcp__ssebench__test_patch"]);
    expect(tools[0]?.description).toBe(TOOL_DESCRIPTION);
    expect(tools[0]?.parameters).toMatchObject({ type: "object", properties: {} });
  });

  test("a call returns the server's text, and the server logs it", async () => {
    const [tool] = await load(`${base}/mcp`);
    const before = patches;
    const result = await tool!.execute("call-1", {});
    expect(result.content).toEqual([{ type: "text", text: `test_patch result ${before + 1}` }]);
    const lines = readFileSync(callsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { via: string; call: string; outcome: string });
    expect(lines.at(-1)).toMatchObject({ via: "mcp", call: "test_patch", outcome: "passed" });
  });

  test("no SSE_MCP_URL, or an answer that is not MCP, is one error naming the server", async () => {
    await expect(ssebenchMcp({ registerTool: () => {} }, {})).rejects.toThrow("SSE_MCP_URL is not set: no MCP server to take tools from");
    await expect(load(`${base}/nothing`)).rejects.toThrow(`MCP server ${base}/nothing answered initialize with HTTP 404: not here`);
  });

  test("the socket client reads a chunked answer whole", async () => {
    const r = await post(`${base}/chunked`, "", {});
    expect([r.status, r.body]).toEqual([200, "abcd"]);
  });
});
