/** Error bodies shaped as each vendor's, so agents show the message and (for 400) stop. */
import type { Wire } from "../formats/models/model-types.ts";

const ANTHROPIC_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  502: "api_error",
};
const OPENAI_CODES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_api_key",
  403: "model_not_allowed",
  404: "not_found",
  502: "upstream_error",
};

export function providerError(wire: Wire | "count_tokens" | "models", status: number, message: string, code?: string): Response {
  const body =
    wire === "anthropic" || wire === "count_tokens"
      ? { type: "error", error: { type: ANTHROPIC_TYPES[status] ?? "api_error", message } }
      : {
          error: {
            message,
            type: status === 401 ? "invalid_request_error" : (ANTHROPIC_TYPES[status] ?? "api_error"),
            param: null,
            code: code ?? OPENAI_CODES[status] ?? null,
          },
        };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
