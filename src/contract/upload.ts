/**
 * Results pushed home (docs/registry.md): a Swarm trial's entrypoint sends its results to the
 * orchestrator's receiver as one PUT, with what a root-only file (UploadSecret) tells it.
 */
import { SECRET_UPLOAD_TARGET, SECRETS_DIR } from "./paths.ts";

/** The entrypoint's default SSE_UPLOAD_FILE. */
export const UPLOAD_FILE = `${SECRETS_DIR}/${SECRET_UPLOAD_TARGET}`;
/**
 * The receiver's limits on one upload (the reference's for a run's results stream): files' bytes
 * and entries (files and folders); past them the whole upload is refused. The entrypoint bounds the
 * archive below them (what the results folder leaves).
 */
export const UPLOAD_LIMITS = { maxBytes: 2 * 1024 ** 3, maxFiles: 200_000 } as const;
/** `PUT <base><UPLOAD_ROUTE><trial id>` */
export const UPLOAD_ROUTE = "/v1/uploads/";

/** The upload file's JSON. */
export interface UploadSecret {
  /** `<base><UPLOAD_ROUTE><trial id>` */
  url: string;
  /** 64 hex digits, the trial's alone */
  token: string;
  /** a Unix socket to send the request over (the receiver's, mounted into the container) */
  socket?: string;
}
