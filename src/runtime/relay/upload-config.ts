/**
 * Where the entrypoint sends the run's results when its results folder is not the host's (a
 * Swarm trial: bind mounts are node-local). The orchestrator gives the URL and the trial's token
 * in a file only root may read (SSE_UPLOAD_FILE, a Swarm secret by default); the entrypoint reads
 * it as root before the agent starts and refuses a file the agent could read. Kept light: it is
 * on the entrypoint's start-up path.
 */
import { UserError } from "../../errors.ts";
import type { UploadSettings } from "../config.ts";
import { msg } from "../messages.ts";
import { parseSecretJson, readRootOnlyFile } from "./secret-file.ts";

export interface UploadConfig {
  url: string;
  token: string;
  /** a Unix socket to send the request over (the receiver's, mounted into the container) */
  socket?: string;
  timeoutMs: number;
}

/** The upload settings, or undefined when the run has no upload file (a local run). */
export function readUploadConfig(settings: UploadSettings): UploadConfig | undefined {
  const path = settings.file;
  const text = readRootOnlyFile(path, msg.uploadFile);
  if (text === undefined) return undefined;
  const doc = parseSecretJson(text, path, msg.uploadFile);
  if (typeof doc.url !== "string" || !/^http:\/\/[^/]+\/./.test(doc.url)) throw new UserError(msg.uploadFile(path, 'has no "url" (http://…)'));
  if (typeof doc.token !== "string" || !/^[0-9a-f]{64}$/.test(doc.token)) throw new UserError(msg.uploadFile(path, 'has no "token" (64 hex digits)'));
  if (doc.socket !== undefined && (typeof doc.socket !== "string" || !doc.socket.startsWith("/"))) {
    throw new UserError(msg.uploadFile(path, '"socket" is not an absolute path'));
  }
  const seconds = settings.timeout ? Number(settings.timeout) : 600;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UserError(msg.uploadTimeout(settings.timeout ?? ""));
  return { url: doc.url, token: doc.token, ...(doc.socket ? { socket: doc.socket as string } : {}), timeoutMs: seconds * 1000 };
}
