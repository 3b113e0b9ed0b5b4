/**
 * Forwarding a call upstream and settling it. The answer passes through byte for byte while the
 * wire's meter reads its usage; a client that leaves does not stop the upstream: its answer is
 * read on (within the drain bounds) until the usage comes, so no answered call escapes metering.
 * A call is settled once: at its metered cost, else at its reservation when the upstream may have
 * billed it (answered, or failed after the request went out), else at nothing. A failure that is
 * the provider's (unreachable, silent, its key refused, rate-limited, its own 5xx) is marked as
 * such: the run reports the first at once and a run that ends on them is an upstream error.
 */
import { answeredModel, costOf, noUsage, type Usage } from "../formats/models/model-usage.ts";
import { type Reservation, release } from "./budget.ts";
import { type Call, type Ending, isCount, record } from "./call.ts";
import type { GatewayLimits } from "./limits.ts";
import { msg } from "./messages.ts";
import { providerError } from "./provider-errors.ts";
import type { WireAdapter } from "./wires/wire-adapter.ts";

export interface Forwarding {
  call: Call;
  adapter: WireAdapter;
  /** undefined for a free call (a token count) */
  reservation: Reservation | undefined;
  limits: GatewayLimits;
  /** the call is over: its slot among the run's calls in flight is free */
  done: () => void;
  /** the upstream failed the call: why */
  upstreamFailed: (detail: string) => void;
}

/** Errors of a request that never left: nothing can have been billed. */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|FailedToOpenSocket|ConnectionRefused|UnableToConnect)$|CERT|TLS|SSL/;

/**
 * The provider's own failures: its key refused (401, 403), payment (402), the model unknown (404:
 * the gateway names the model, never the agent), rate and quota limits (429), its errors (5xx).
 * A 400, 413 or 422 answers the agent's request: that stays the agent's.
 */
export function providersFault(status: number): boolean {
  return status === 401 || status === 402 || status === 403 || status === 404 || status === 429 || status >= 500;
}

const ok = (status: number) => status >= 200 && status < 300;
const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** An error answer's message (either vendor's shape), cut short; else its first bytes. */
function errorText(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, 4096));
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    if (typeof message === "string") return message.slice(0, 200);
  } catch {
    // not JSON
  }
  return text.slice(0, 200).replace(/\s+/g, " ").trim();
}

type StopReason = "idle" | "drain" | "closed";

/** How the gateway stops a call's upstream, and why it did. */
class Control {
  readonly abort = new AbortController();
  reason: StopReason | undefined;
  private reader: { cancel: () => Promise<void> } | undefined;
  private timer: ReturnType<typeof setTimeout>;

  constructor(private readonly limits: GatewayLimits) {
    this.timer = setTimeout(() => this.stop("idle"), limits.upstreamIdleMs);
  }

  /** A byte came from the upstream. */
  touch(): void {
    this.timer.refresh();
  }

  watch(reader: { cancel: () => Promise<void> }): void {
    this.reader = reader;
  }

  stop(reason: StopReason): void {
    this.reason ??= reason;
    clearTimeout(this.timer);
    this.abort.abort();
    // A pending read of an in-process upstream ends with the stream's cancel, not the signal.
    this.reader?.cancel().catch(() => {});
  }

  end(): void {
    clearTimeout(this.timer);
  }

  /** What stopped the call, in the ledger's words (undefined: the gateway did not). */
  why(): string | undefined {
    if (this.reason === "idle") return msg.upstreamSilent(this.limits.upstreamIdleMs / 1000);
    if (this.reason === "drain") return msg.drainBounded(this.limits.drainMs / 1000, this.limits.drainBytes);
    if (this.reason === "closed") return msg.runEnded();
    return undefined;
  }
}

/** Settles and records the call once. `final`: the metered usage is the whole call's. */
function settler(f: Forwarding, control: Control) {
  let settled = false;
  let resolve = () => {};
  const entry = { stop: () => control.stop("closed"), settled: new Promise<void>((r) => (resolve = r)) };
  f.call.run.active.add(entry);
  return (status: number, usage: Usage, final: boolean, mayBeBilled: boolean, ending: Ending): number => {
    if (settled) return 0;
    settled = true;
    control.end();
    const { call, reservation } = f;
    const metered = ok(status) && final;
    const estimated = !metered && reservation !== undefined && (ok(status) || mayBeBilled);
    const cost = metered && reservation ? costOf(usage, call.run.model.config.price) : estimated ? (reservation as Reservation).usd : 0;
    release(call.run, reservation);
    record(call, status, usage, cost, { ...ending, estimated });
    if (ending.upstreamFailure) f.upstreamFailed(ending.upstreamFailure);
    call.run.active.delete(entry);
    resolve();
    f.done();
    return cost;
  };
}

export async function forward(f: Forwarding, request: (signal: AbortSignal) => Request): Promise<Response> {
  const { call, limits } = f;
  const control = new Control(limits);
  const settle = settler(f, control);
  let upstream: Response;
  try {
    upstream = await call.run.model.upstream(request(control.abort.signal));
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? (e as Error).name ?? "");
    const detail = control.why() ?? describe(e);
    const status = control.reason === "idle" ? 504 : 502;
    settle(status, noUsage(), false, !NOT_SENT.test(code), { error: detail, upstreamFailure: control.reason === "closed" ? undefined : detail });
    return providerError(call.route, status, control.reason === "idle" ? detail : msg.upstreamFailed(detail));
  }
  control.touch();
  const type = upstream.headers.get("content-type") ?? "application/json";
  if (ok(upstream.status) && type.startsWith("text/event-stream") && upstream.body) {
    return new Response(meteredStream(f, upstream, control, settle), { status: upstream.status, headers: { "content-type": type, "cache-control": "no-cache" } });
  }
  const read = await readAnswer(upstream, control, limits.answerBytes).catch((e: unknown) => e as Error);
  const firstByte = performance.now();
  if (read instanceof Error || read === undefined || control.reason) {
    const detail = control.why() ?? (read instanceof Error ? describe(read) : msg.answerTooLarge(limits.answerBytes));
    const failure = control.reason === "closed" ? undefined : detail;
    control.stop("closed");
    settle(502, noUsage(), false, true, { firstByte, error: detail, upstreamFailure: failure });
    return providerError(call.route, 502, msg.upstreamFailed(detail));
  }
  let usage: Usage | undefined;
  let answered: string | undefined;
  if (ok(upstream.status) && !isCount(call.route)) {
    try {
      const body = JSON.parse(new TextDecoder().decode(read));
      usage = f.adapter.usageOfBody(body);
      answered = answeredModel(body);
    } catch {
      // an answer that is not JSON has no usage to meter
    }
  }
  const failure = providersFault(upstream.status) ? `${upstream.status}: ${errorText(read)}` : undefined;
  const cost = settle(upstream.status, usage ?? noUsage(), usage !== undefined, false, { firstByte, response: read, upstreamFailure: failure, answeredModel: answered });
  // What the call cost and the run has spent: a client cannot know the prices (the oracle plugin reads them).
  return new Response(read, { status: upstream.status, headers: { "content-type": type, "x-ssebench-cost": String(cost), "x-ssebench-spent": String(call.run.totals.spend) } });
}

/** A non-streamed answer, up to `max` bytes (undefined beyond). */
async function readAnswer(upstream: Response, control: Control, max: number): Promise<Uint8Array | undefined> {
  if (!upstream.body) return new Uint8Array(0);
  const reader = upstream.body.getReader();
  control.watch(reader);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return Buffer.concat(chunks);
    control.touch();
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
function meteredStream(f: Forwarding, upstream: Response, control: Control, settle: ReturnType<typeof settler>): ReadableStream<Uint8Array> {
  const { limits } = f;
  const reader = (upstream.body as ReadableStream<Uint8Array>).getReader();
  control.watch(reader);
  const meter = f.adapter.meter();
  const decoder = new TextDecoder();
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let drained = 0;
  let firstByte: number | undefined;
  let gone = false;
  let ended = false;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  /** `failure`: the stream broke (not by the gateway's hand) */
  const finish = (failure?: string) => {
    clearTimeout(drainTimer);
    meter.end();
    const why = control.why();
    const upstreamFailure = control.reason === "idle" ? why : control.reason ? undefined : failure;
    settle(upstream.status, meter.usage, meter.final, true, { firstByte, aborted: gone, error: why ?? failure, response: Buffer.concat(kept), upstreamFailure, answeredModel: meter.model });
  };
  const next = async (): Promise<Uint8Array | undefined> => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return undefined;
    }
    control.touch();
    firstByte ??= performance.now();
    meter.push(decoder.decode(value, { stream: true }));
    if (gone) {
      drained += value.length;
      if (drained > limits.drainBytes) control.stop("drain");
    } else if (keptBytes + value.length <= limits.keepBytes) {
      kept.push(value);
      keptBytes += value.length;
    }
    return value;
  };
  const drain = async () => {
    drainTimer = setTimeout(() => control.stop("drain"), limits.drainMs);
    try {
      while (!meter.final && !control.reason && (await next()) !== undefined);
    } catch (e) {
      return finish(describe(e));
    }
    // The usage is in: the rest of the answer is of no use to anyone.
    if (!ended && !control.reason) {
      control.abort.abort();
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
          if (control.reason) controller.error(new Error(control.why()));
          else controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        if (gone) return;
        finish(describe(e));
        controller.error(e);
      }
    },
    cancel() {
      gone = true;
      void drain();
    },
  });
}
