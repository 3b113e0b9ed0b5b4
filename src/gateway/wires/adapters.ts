/**
 * The wires' adapters by name (wire-adapter.ts): a new wire is one adapter file and its line here,
 * which the type makes required.
 */
import type { Wire } from "../../formats/models/model-types.ts";
import { anthropicAdapter } from "./anthropic.ts";
import { chatAdapter } from "./chat.ts";
import { geminiAdapter } from "./gemini.ts";
import { responsesAdapter } from "./responses.ts";
import type { WireAdapter } from "./wire-adapter.ts";

export const ADAPTERS: Record<Wire, WireAdapter> = {
  anthropic: anthropicAdapter,
  chat: chatAdapter,
  responses: responsesAdapter,
  gemini: geminiAdapter,
};
