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

/** Google's canonical status names, as the Gemini API puts them beside the HTTP code. */
const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  504: "DEADLINE_EXCEEDED",
};

export function providerError(wire: Wire | "count_tokens" | "gemini_count_tokens" | "models", status: number, message: string, code?: string): Response {
  const body =
    wire === "gemini" || wire === "gemini_count_tokens"
      ? { error: { code: status, message, status: GOOGLE_STATUS[status] ?? (status >= 500 ? "UNAVAILABLE" : "FAILED_PRECONDITION"), ...(code ? { details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: code, domain: "ssebench" }] } : {}) } }
      : wire === "anthropic" || wire === "count_tokens"
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
