/**
 * The MCP side of the tool API: server `ssebench`, one tool `test_patch` with no arguments,
 * Streamable HTTP, stateless (a fresh server and transport per request, JSON replies). Loaded
 * on the first /mcp request so the SDK stays off the entrypoint's path to the agent's exec.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { VERSION } from "../../version.ts";
import type { CallLog } from "./calls.ts";
import type { Level } from "./levels.ts";
import { toolMsg } from "./messages.ts";
import { PhaseEnded, type ToolService } from "./service.ts";

export const TOOL_DESCRIPTION =
  "Checks your current changes to the project: builds it on a clean copy with your change and runs the checks the difficulty level allows. Takes no arguments.";

export async function handleMcp(req: Request, o: { service: ToolService; level: Level; calls: CallLog }): Promise<Response> {
  const server = new McpServer({ name: "ssebench", version: VERSION });
  server.registerTool("test_patch", { title: "Test your patch", description: TOOL_DESCRIPTION, inputSchema: {} }, async () => {
    const startedAt = performance.now();
    const wall = new Date();
    let text: string;
    let outcome: string;
    let checks: string[] = [];
    try {
      const r = await o.service.testPatch();
      ({ text, outcome, checks } = r);
    } catch (e) {
      text = e instanceof PhaseEnded ? toolMsg.phaseEnded() : toolMsg.internal();
      outcome = e instanceof PhaseEnded ? "refused" : "infra";
    }
    o.calls.write({ via: "mcp", call: "test_patch", level: o.level.n, checks, outcome, http_status: 200 }, startedAt, wall);
    return { content: [{ type: "text", text }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(req);
}
