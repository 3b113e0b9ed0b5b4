/**
 * Each run's own kernel uids for `model` and `sse-runner` (docs/container-contract.md §4): the
 * containers share the host's uid space (no user namespace), so the tool layer's fixed uids would
 * make per-uid limits and `kill -1` cross runs. A random pair from a range no image uses.
 */
import { randomInt } from "node:crypto";

export const RUN_UID_BASE = 1_000_000_000;
/** Pairs (model = base + 2k, sse-runner = base + 2k + 1) up to 1_499_999_999. */
export const RUN_UID_PAIRS = 250_000_000;

export function pickRunUids(): { SSE_MODEL_UID: string; SSE_RUNNER_UID: string } {
  const model = RUN_UID_BASE + 2 * randomInt(RUN_UID_PAIRS);
  return { SSE_MODEL_UID: String(model), SSE_RUNNER_UID: String(model + 1) };
}
