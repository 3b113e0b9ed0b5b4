/**
 * What one run's agent may hold of the gateway (issue 27 item 3): request bodies are capped and read
 * against a deadline (a connection idle while its request arrives is closed by the listener's idle
 * timeout), a run has a bounded number of calls in flight, a silent upstream is given up, and the
 * answer of a client that left is read to its usage within bounds. Several runs of a job share one
 * process and its file descriptors: none of them may starve the others.
 */
export interface GatewayLimits {
  /** request body bytes (413 beyond, before the rest is read) */
  maxBodyBytes: number;
  /** ms a request body may take to arrive in all (a body dripping in) */
  bodyMs: number;
  /** s a connection may sit idle while its request arrives (the listener's idleTimeout) */
  idleSeconds: number;
  /** calls one run may have in flight, abandoned ones being metered included (429 beyond) */
  maxCalls: number;
  /** ms without a byte from the upstream (its headers, or the next chunk) before the call is given up */
  upstreamIdleMs: number;
  /** after the client left: how long and how much of the upstream's answer is read to meter it */
  drainMs: number;
  drainBytes: number;
  /** bytes of a non-streamed answer (502 beyond) */
  answerBytes: number;
  /** bytes of one answer kept for the transcript */
  keepBytes: number;
  /** when a run's gateway closes: ms its calls in flight get to be settled before they are stopped */
  closeGraceMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: GatewayLimits = {
  maxBodyBytes: 32 * MiB,
  bodyMs: 60_000,
  idleSeconds: 10,
  maxCalls: 32,
  upstreamIdleMs: 600_000,
  drainMs: 300_000,
  drainBytes: 64 * MiB,
  answerBytes: 64 * MiB,
  keepBytes: 64 * MiB,
  closeGraceMs: 10_000,
};

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; why: "too_large" | "too_slow" | "client_left"; received: number };

/** Reads a request body up to `max` bytes and `ms` milliseconds; never more of it than that. */
export async function readRequestBody(request: Request, max: number, ms: number): Promise<BodyRead> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > max) return { ok: false, why: "too_large", received: 0 };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") return { ok: false, why: "too_slow", received };
      if (next.done) break;
      received += next.value.length;
      if (received > max) return { ok: false, why: "too_large", received };
      chunks.push(next.value);
    }
  } catch {
    return { ok: false, why: "client_left", received };
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
  return { ok: true, bytes: chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks) };
}
