/**
 * What the budget needs to know of each wire (one adapter file per wire, listed in adapters.ts):
 * the output cap a request sets (and how to set one), what in a request its bytes do not bound, and
 * how usage is read from an answer. The reservation and metering (../budget.ts, ../forward.ts) use
 * only this interface.
 */
import type { Provider, Wire } from "../../formats/models/model-types.ts";
import type { StreamMeter, Usage } from "../../formats/models/model-usage.ts";

export type Json = Record<string, unknown>;

export interface OutputCap {
  /** output tokens per answer the request allows (undefined: it sets no cap) */
  max: number | undefined;
  /** how many answers one call makes (chat's n) */
  answers: number;
  /** output tokens billed beyond the answers (chat's rejected predicted output); 0 mostly */
  extra: number;
}

export interface WireAdapter {
  outputCap(body: Json): OutputCap;
  /** sets the request's cap to `max` tokens (the field it used, else the wire's own for this provider) */
  setOutputCap(body: Json, max: number, provider: Provider): void;
  /**
   * A parameter that names content the vendor stores (a stored response, prompt or conversation):
   * its tokens are not in the request, so no reservation can bound it. Undefined when none.
   */
  storedContent(body: Json): string | undefined;
  /**
   * How many times the vendor may read the input in one call (a hosted tool it loops over); at
   * least 1. May set the request's own limit on that loop, to bound it.
   */
  inputReads(body: Json): number;
  /** a meter of the wire's streamed usage events (`final` once the last one went by) */
  meter(): StreamMeter;
  /** usage of a non-streamed answer; undefined when it carries none */
  usageOfBody(body: unknown): Usage | undefined;
}

/** A whole number of tokens the request asks for, if it is one. */
export function tokens(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Usage of a non-streamed answer, when it has a usage object. */
export function bodyUsage(wire: Wire, body: unknown, read: (wire: Wire, body: unknown) => Usage): Usage | undefined {
  const usage = (body as Json | null)?.usage;
  return usage !== null && typeof usage === "object" && Object.keys(usage).length > 0 ? read(wire, body) : undefined;
}
