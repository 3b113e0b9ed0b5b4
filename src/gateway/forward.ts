/**
 * Forwarding a call upstream and settling it. The answer passes through byte for byte while the
 * wire's meter reads its usage; a client that leaves does not stop the upstream: its answer is
 * read on (within the drain bounds) until the usage comes, so no answered call escapes metering.
 * A call is settled once: at its metered cost, else at its reservation when the upstream may have
 * billed it (answered, or failed after the request went out), else at nothing.
 */
import { costOf, noUsage, type Usage } from "../formats/models/model-usage.ts";
import { type Reservation, release } from "./budget.ts";
import { type Call, type Ending, record } from "./call.ts";
import type { GatewayLimits } from "./limits.ts";
import { msg } from "./messages.ts";
import { providerError } from "./provider-errors.ts";
import type { WireAdapter } from "./wires/wire-adapter.ts";

export interface Forwarding {
  call: Call;
  adapter: WireAdapter;
  /** undefined for a free call (count_tokens) */
  reservation: Reservation | undefined;
  limits: GatewayLimits;
  /** the call is over: its slot among the run's calls in flight is free */
  done: () => void;
}

/** Errors of a request that never left: nothing can have been billed. */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|FailedToOpenSocket|ConnectionRefused|UnableToConnect)$|CERT|TLS|SSL/;

const ok = (status: number) => status >= 200 && status < 300;
const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Settles and records the call once. `final`: the metered usage is the whole call's. */
function settler(f: Forwarding) {
  let settled = false;
  return (status: number, usage: Usage, final: boolean, mayBeBilled: boolean, ending: Ending): number => {
    if (settled) return 0;
    settled = true;
    const { call, reservation } = f;
    const metered = ok(status) && final;
    const estimated = !metered && reservation !== undefined && (ok(status) || mayBeBilled);
    const cost = metered && reservation ? costOf(usage, call.run.model.config.price) : estimated ? (reservation as Reservation).usd : 0;
    release(call.run, reservation);
    record(call, status, usage, cost, { ...ending, estimated });
    f.done();
    return cost;
  };
}

/** Aborts the upstream after `ms` without a byte; `touch()` on each one. */
function idleWatch(abort: AbortController, ms: number) {
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    abort.abort();
  }, ms);
  return { touch: () => timer.refresh(), stop: () => clearTimeout(timer), fired: () => fired };
}

export async function forward(f: Forwarding, request: Request, abort: AbortController): Promise<Response> {
  const { call, limits } = f;
  const settle = settler(f);
  const idle = idleWatch(abort, limits.upstreamIdleMs);
  let upstream: Response;
  try {
    upstream = await call.run.model.upstream(request);
  } catch (e) {
    idle.stop();
    const code = String((e as { code?: unknown }).code ?? (e as Error).name ?? "");
    const detail = idle.fired() ? msg.upstreamSilent(limits.upstreamIdleMs / 1000) : describe(e);
    const status = idle.fired() ? 504 : 502;
    settle(status, noUsage(), false, !NOT_SENT.test(code), { error: detail });
    return providerError(call.route, status, idle.fired() ? detail : msg.upstreamFailed(detail));
  }
  idle.touch();
  const type = upstream.headers.get("content-type") ?? "application/json";
  if (ok(upstream.status) && type.startsWith("text/event-stream") && upstream.body) {
    return new Response(meteredStream(f, upstream, abort, idle, settle), { status: upstream.status, headers: { "content-type": type, "cache-control": "no-cache" } });
  }
  const read = await readAnswer(upstream, limits.answerBytes, idle.touch).catch((e: unknown) => e as Error);
  idle.stop();
  const firstByte = performance.now();
  if (read instanceof Error || read === undefined) {
    const detail = idle.fired() ? msg.upstreamSilent(limits.upstreamIdleMs / 1000) : read ? describe(read) : msg.answerTooLarge(limits.answerBytes);
    abort.abort();
    settle(502, noUsage(), false, true, { firstByte, error: detail });
    return providerError(call.route, 502, msg.upstreamFailed(detail));
  }
  let usage: Usage | undefined;
  if (ok(upstream.status) && call.route !== "count_tokens") {
    try {
      usage = f.adapter.usageOfBody(JSON.parse(new TextDecoder().decode(read)));
    } catch {
      // an answer that is not JSON has no usage to meter
    }
  }
  const cost = settle(upstream.status, usage ?? noUsage(), usage !== undefined, false, { firstByte, response: read });
  // What the call cost and the run has spent: a client cannot know the prices (the oracle plugin reads them).
  return new Response(read, { status: upstream.status, headers: { "content-type": type, "x-ssebench-cost": String(cost), "x-ssebench-spent": String(call.run.totals.spend) } });
}

/** A non-streamed answer, up to `max` bytes (undefined beyond). */
async function readAnswer(upstream: Response, max: number, touch: () => void): Promise<Uint8Array | undefined> {
  if (!upstream.body) return new Uint8Array(0);
  const reader = upstream.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return Buffer.concat(chunks);
    touch();
    size += value.length;
    if (size > max) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * The answer's stream, passed through as the client pulls it and metered as it goes. When the
 * client leaves, the rest is read without it until the usage has come (then the upstream is
 * stopped), within the drain bounds; past them the upstream is stopped and the call charged its
 * reservation.
 */
function meteredStream(f: Forwarding, upstream: Response, abort: AbortController, idle: ReturnType<typeof idleWatch>, settle: ReturnType<typeof settler>): ReadableStream<Uint8Array> {
  const { limits } = f;
  const reader = (upstream.body as ReadableStream<Uint8Array>).getReader();
  const meter = f.adapter.meter();
  const decoder = new TextDecoder();
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let drained = 0;
  let firstByte: number | undefined;
  let gone = false;
  let ended = false;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const finish = (error?: string) => {
    idle.stop();
    clearTimeout(drainTimer);
    meter.end();
    settle(upstream.status, meter.usage, meter.final, true, { firstByte, aborted: gone, error, response: Buffer.concat(kept) });
  };
  const next = async (): Promise<Uint8Array | undefined> => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return undefined;
    }
    idle.touch();
    firstByte ??= performance.now();
    meter.push(decoder.decode(value, { stream: true }));
    if (gone) {
      drained += value.length;
      if (drained > limits.drainBytes) abort.abort();
    } else if (keptBytes + value.length <= limits.keepBytes) {
      kept.push(value);
      keptBytes += value.length;
    }
    return value;
  };
  const failure = (e: unknown) => (idle.fired() ? msg.upstreamSilent(limits.upstreamIdleMs / 1000) : gone && abort.signal.aborted ? msg.drainBounded(limits.drainMs / 1000, limits.drainBytes) : describe(e));
  const drain = async () => {
    drainTimer = setTimeout(() => abort.abort(), limits.drainMs);
    try {
      while (!meter.final && (await next()) !== undefined);
    } catch (e) {
      return finish(failure(e));
    }
    // The usage is in: the rest of the answer is of no use to anyone.
    if (!ended) {
      abort.abort();
      reader.cancel().catch(() => {});
    }
    finish();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const value = await next();
        if (gone) return;
        if (value === undefined) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        if (gone) return;
        finish(failure(e));
        controller.error(e);
      }
    },
    cancel() {
      gone = true;
      void drain();
    },
  });
}
