/**
 * Where the entrypoint sends the run's results when its results folder is not the host's (a
 * Swarm trial: bind mounts are node-local). The orchestrator gives the URL and the trial's token
 * in a file only root may read (SSE_UPLOAD_FILE, a Swarm secret by default); the entrypoint reads
 * it as root before the agent starts and refuses a file the agent could read. Kept light: it is
 * on the entrypoint's start-up path.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export const UPLOAD_FILE = "/run/secrets/ssebench-upload";
/** `PUT <base><UPLOAD_ROUTE><trial id>` */
export const UPLOAD_ROUTE = "/v1/uploads/";
const MAX_FILE_BYTES = 64 * 1024;

export interface UploadConfig {
  url: string;
  token: string;
  /** a Unix socket to send the request over (the receiver's, mounted into the container) */
  socket?: string;
  timeoutMs: number;
}

type Env = Record<string, string | undefined>;

/** The upload settings, or undefined when the run has no upload file (a local run). */
export function readUploadConfig(env: Env): UploadConfig | undefined {
  const path = env.SSE_UPLOAD_FILE || UPLOAD_FILE;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UserError(msg.uploadFile(path, e instanceof Error ? e.message : String(e)));
  }
  let text: string;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UserError(msg.uploadFile(path, "is not a regular file"));
    if (st.mode & 0o077) throw new UserError(msg.uploadFile(path, `is readable by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}); give it mode 0400 or 0600`));
    const buf = Buffer.alloc(MAX_FILE_BYTES + 1);
    let n = 0;
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0 && n <= MAX_FILE_BYTES; got = readSync(fd, buf, n, buf.length - n, null)) n += got;
    if (n > MAX_FILE_BYTES) throw new UserError(msg.uploadFile(path, `is larger than ${MAX_FILE_BYTES} bytes`));
    text = buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
  let doc: { url?: unknown; token?: unknown; socket?: unknown };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UserError(msg.uploadFile(path, "is not JSON"));
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new UserError(msg.uploadFile(path, "is not a JSON object"));
  if (typeof doc.url !== "string" || !/^http:\/\/[^/]+\/./.test(doc.url)) throw new UserError(msg.uploadFile(path, 'has no "url" (http://…)'));
  if (typeof doc.token !== "string" || !/^[0-9a-f]{64}$/.test(doc.token)) throw new UserError(msg.uploadFile(path, 'has no "token" (64 hex digits)'));
  if (doc.socket !== undefined && (typeof doc.socket !== "string" || !doc.socket.startsWith("/"))) {
    throw new UserError(msg.uploadFile(path, '"socket" is not an absolute path'));
  }
  const seconds = env.SSE_UPLOAD_TIMEOUT ? Number(env.SSE_UPLOAD_TIMEOUT) : 600;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UserError(msg.uploadTimeout(env.SSE_UPLOAD_TIMEOUT ?? ""));
  return { url: doc.url, token: doc.token, ...(doc.socket ? { socket: doc.socket as string } : {}), timeoutMs: seconds * 1000 };
}
