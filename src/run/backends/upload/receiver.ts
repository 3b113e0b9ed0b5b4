/**
 * The host's end of "results pushed home" (docs/registry.md): an HTTP server that takes one
 * tarball per expected trial, only with that trial's token, once, and unpacks it into the trial's
 * run folder (unpack.ts) so the folder is what a local run leaves. A wrong token is answered and
 * forgotten (a guesser cannot spend the real upload); a refused tarball spends it.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { describeCause, UserError } from "../../../errors.ts";
import { UPLOAD_LIMITS, UPLOAD_ROUTE, type UploadSecret } from "../../../contract/upload.ts";
import { uploadMsg as m } from "./messages.ts";
import { TarParser, TarRefused } from "./tar-reader.ts";
import { StagingSink } from "./unpack.ts";

export interface UploadLimits {
  /** sum of the files' sizes */
  maxBytes: number;
  /** files and folders */
  maxFiles: number;
}

/** The reference's limits for a run's results stream (2 GiB, 200,000 entries; the entrypoint bounds the archive below them). */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { ...UPLOAD_LIMITS };

export type UploadOutcome = { ok: true; files: number; bytes: number; skipped: string[] } | { ok: false; reason: string };

export interface ExpectedUpload {
  trialId: string;
  /** the text of the root-only file the container gets (SSE_UPLOAD_FILE) */
  secretText: string;
  /** settles once: accepted, refused, or cancelled */
  outcome: Promise<UploadOutcome>;
  /** stops expecting (the trial ended without an upload) */
  cancel(reason?: string): void;
}

export interface ResultsReceiver {
  /** where it listens: `http://127.0.0.1:<port>` or `unix:<path>` */
  address: string;
  /** `advertise` overrides the receiver's for this trial (e.g. its own relay's name on its overlay) */
  expect(trialId: string, runDir: string, opts?: { advertise?: string }): ExpectedUpload;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  listen: { hostname: string; port: number } | { unix: string };
  /** the base URL containers use (default: the listening address; http://localhost for a socket) */
  advertise?: string;
  /** the receiver's socket as the container sees it, when it is mounted into the container */
  containerSocket?: string;
  limits?: Partial<UploadLimits>;
}

const TRIAL_ID = /^[A-Za-z0-9._-]{1,128}$/;

interface Pending {
  runDir: string;
  tokenHash: Buffer;
  state: "waiting" | "receiving" | "done";
  settle: (o: UploadOutcome) => void;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();
const reply = (status: number, body: unknown) => Response.json(body, { status });

/** What the receiver holds: its limits and the uploads it expects. */
interface Receiving {
  limits: UploadLimits;
  /** the largest body taken: the files' limit plus a tarball's overhead */
  maxBody: number;
  pending: Map<string, Pending>;
}

export function startResultsReceiver(opts: ReceiverOptions): ResultsReceiver {
  const limits: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS, ...opts.limits };
  // A tarball's overhead: a header (and at most a pax header) and padding per entry, the end marker.
  const receiving: Receiving = { limits, maxBody: limits.maxBytes + limits.maxFiles * 2048 + 2 * 1024 * 1024, pending: new Map() };
  const server = listen(opts.listen, (req) => route(receiving, req));
  const address = "unix" in opts.listen ? `unix:${opts.listen.unix}` : `http://${opts.listen.hostname}:${server.port}`;
  const base = (opts.advertise ?? ("unix" in opts.listen ? "http://localhost" : address)).replace(/\/+$/, "");
  return {
    address,
    expect: (trialId, runDir, expectOpts) => expectUpload(receiving.pending, trialId, runDir, expectOpts?.advertise ?? base, opts.containerSocket),
    async close() {
      for (const [id, p] of receiving.pending) if (p.state === "waiting") p.settle({ ok: false, reason: m.noUpload(id) });
      await server.stop(true);
    },
  };
}

function listen(where: ReceiverOptions["listen"], fetch: (req: Request) => Response | Promise<Response>): ReturnType<typeof Bun.serve> {
  // Our own limit applies as the body streams in; Bun's default (128 MiB) would cut it short.
  const maxRequestBodySize = Number.MAX_SAFE_INTEGER;
  try {
    return "unix" in where
      ? Bun.serve({ unix: where.unix, maxRequestBodySize, fetch })
      : Bun.serve({ hostname: where.hostname, port: where.port, idleTimeout: 255, maxRequestBodySize, fetch });
  } catch (cause) {
    throw new UserError(m.listenFailed("unix" in where ? where.unix : `${where.hostname}:${where.port}`, describeCause(cause)));
  }
}

function route(receiving: Receiving, req: Request): Response | Promise<Response> {
  const path = new URL(req.url).pathname;
  if (req.method !== "PUT" || !path.startsWith(UPLOAD_ROUTE)) return reply(404, { error: m.badRoute() });
  // Trial IDs need no escapes: the path is taken as it came (a stray '%' is then simply not an ID).
  const trial = path.slice(UPLOAD_ROUTE.length);
  if (!TRIAL_ID.test(trial)) return reply(404, { error: m.badTrialId(trial) });
  return receive(receiving, req, trial);
}

/** One PUT: the trial's token, once, then its tarball unpacked into its run folder. */
async function receive(receiving: Receiving, req: Request, trial: string): Promise<Response> {
  const p = receiving.pending.get(trial);
  if (!p) return reply(404, { error: m.unknownTrial(trial) });
  const auth = req.headers.get("authorization") ?? "";
  const given = auth.startsWith("Bearer ") ? sha256(auth.slice(7)) : Buffer.alloc(32);
  if (!auth.startsWith("Bearer ") || !timingSafeEqual(given, p.tokenHash)) return reply(401, { error: m.badToken(trial) });
  if (p.state === "done") return reply(409, { error: m.replay(trial) });
  if (p.state === "receiving") return reply(409, { error: m.busy(trial) });
  p.state = "receiving";
  const refuse = (status: number, why: string) => {
    const reason = m.refused(trial, why);
    p.state = "done";
    p.settle({ ok: false, reason });
    return reply(status, { error: reason });
  };
  const { maxBody } = receiving;
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBody) return refuse(413, m.tooLarge(maxBody));
  let sink: StagingSink;
  try {
    sink = new StagingSink(p.runDir);
  } catch (cause) {
    return refuse(500, describeCause(cause));
  }
  const parser = new TarParser(sink, receiving.limits);
  try {
    await readBody(req, maxBody, parser);
  } catch (error) {
    sink.discard();
    if (error instanceof TarRefused) return refuse(/larger than|more than/.test(error.message) ? 413 : 422, error.message);
    return refuse(400, m.cannotReceive(describeCause(error)));
  }
  let skipped: string[];
  try {
    skipped = sink.merge(p.runDir);
  } catch (cause) {
    sink.discard();
    return refuse(500, describeCause(cause));
  }
  p.state = "done";
  p.settle({ ok: true, files: parser.entries, bytes: parser.bytes, skipped });
  return reply(201, { files: parser.entries, bytes: parser.bytes });
}

/** Streams the body into the tar parser, at most maxBody bytes. */
async function readBody(req: Request, maxBody: number, parser: TarParser): Promise<void> {
  let raw = 0;
  if (req.body) {
    for await (const chunk of req.body) {
      raw += chunk.length;
      if (raw > maxBody) throw new TarRefused(m.tooLarge(maxBody));
      parser.write(chunk);
    }
  }
  parser.end();
}

/** A trial's upload from now on: a fresh token, the secret the container gets, the outcome to wait for. */
function expectUpload(pending: Map<string, Pending>, trialId: string, runDir: string, base: string, containerSocket: string | undefined): ExpectedUpload {
  if (!TRIAL_ID.test(trialId)) throw new UserError(m.badTrialId(trialId));
  // Again once the last one settled (a retried trial): a fresh token, the old one is worthless.
  if (pending.get(trialId)?.state === "waiting" || pending.get(trialId)?.state === "receiving") throw new UserError(m.expectedTwice(trialId));
  const token = randomBytes(32).toString("hex");
  let settle!: (o: UploadOutcome) => void;
  const outcome = new Promise<UploadOutcome>((resolve) => {
    let done = false;
    settle = (o) => {
      if (done) return;
      done = true;
      resolve(o);
    };
  });
  pending.set(trialId, { runDir, tokenHash: sha256(token), state: "waiting", settle });
  const url = `${base.replace(/\/+$/, "")}${UPLOAD_ROUTE}${trialId}`;
  const secret: UploadSecret = { url, token };
  if (containerSocket) secret.socket = containerSocket;
  return {
    trialId,
    secretText: `${JSON.stringify(secret)}\n`,
    outcome,
    cancel(reason) {
      const p = pending.get(trialId);
      if (p && p.state === "waiting") p.state = "done";
      settle({ ok: false, reason: reason ?? m.noUpload(trialId) });
    },
  };
}
