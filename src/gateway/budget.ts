/**
 * The budget as a hard cap on what the provider can bill (docs/gateway.md "Budget"). Before a call
 * is forwarded, its worst case is reserved against what the run has left (budget − spend − what the
 * calls in flight hold): the input bounded by the request's bytes, the output by its max-tokens
 * field, lowered (or set) so the worst case fits. A call that cannot fit one output token is
 * refused. When the call ends it is settled at its metered cost, or at the reservation when its
 * usage never came (the provider may have billed it: no answered call is free).
 */
import type { RunKey } from "./keys.ts";
import type { BodyShape } from "./wires/walk.ts";
import type { Json, WireAdapter } from "./wires/wire-adapter.ts";

/** Tokens a vendor adds to a request of its own (message framing, the tool-use system prompt). */
export const OVERHEAD_TOKENS = 4096;
/** An image costs by its pixels, not its bytes; vendors scale images down to at most about 1,600-6,000 tokens. */
export const IMAGE_TOKENS = 10_000;
/** A document or file (pages, or content stored at the vendor) is bounded only by the largest context window. */
export const FILE_TOKENS = 1_000_000;
/** The cap set on a call that sets none when the model file gives no max_output_tokens. */
export const DEFAULT_MAX_OUTPUT = 16_384;
/** Bytes the gateway may add to a request after measuring it (its output cap, a hosted tool's limit). */
const ADDED_BYTES = 256;

export interface Reservation {
  usd: number;
  settled: boolean;
}

/**
 * Reserves the worst case of a call whose forwarded body is `bytes` long (after the gateway's own
 * changes but its cap): the input at the dearest input price (fresh, cache read or cache write)
 * for each time the vendor may read it, one token per byte (a token is at least one byte of text;
 * JSON never encodes text in fewer bytes) plus the vendor's overhead and the images' and files'
 * allowances; the output at the output price, up to the cap this sets. Undefined: nothing fits.
 */
export function reserve(run: RunKey, adapter: WireAdapter, body: Json, bytes: number, shape: BodyShape): Reservation | undefined {
  const { price, provider, max_output_tokens } = run.model.config;
  const reads = adapter.inputReads(body);
  const inputTokens = (bytes + ADDED_BYTES + OVERHEAD_TOKENS + shape.images * IMAGE_TOKENS + shape.files * FILE_TOKENS) * reads;
  const inputUsd = (inputTokens * Math.max(price.input, price.cache_read, price.cache_write)) / 1e6;
  const cap = adapter.outputCap(body);
  const perToken = price.output / 1e6;
  const left = run.budget - run.totals.spend - run.reserved;
  const room = left - inputUsd - cap.extra * perToken;
  if (room <= 0 || room < perToken * cap.answers) return undefined;
  const fits = perToken > 0 ? Math.floor(room / (perToken * cap.answers)) : Number.POSITIVE_INFINITY;
  const max = Math.min(cap.max ?? max_output_tokens ?? DEFAULT_MAX_OUTPUT, fits);
  if (cap.max === undefined || max < cap.max) adapter.setOutputCap(body, max, provider);
  const usd = inputUsd + (max * cap.answers + cap.extra) * perToken;
  run.reserved += usd;
  return { usd, settled: false };
}

/** Releases a reservation; the call's cost goes to the run's spend where the ledger line records it. */
export function release(run: RunKey, reservation: Reservation | undefined): void {
  if (!reservation || reservation.settled) return;
  reservation.settled = true;
  run.reserved = Math.max(0, run.reserved - reservation.usd);
  // Floating-point residue of many reservations must not look like money held.
  if (run.reserved < 1e-12) run.reserved = 0;
}
