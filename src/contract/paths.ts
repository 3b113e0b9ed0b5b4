/**
 * Where things are in a run container (docs/container-contract.md §2): the paths `ssebench run`
 * mounts and the entrypoint reads by default. Both binaries import them from here.
 */

/** The tool layer's entrypoint: pinned by `docker run` and `service create`, whatever the image says. */
export const ENTRYPOINT = "/usr/local/bin/ssebench-entrypoint";
/** The run folder (the entrypoint's default SSE_RESULTS). */
export const RESULTS_MOUNT = "/var/lib/ssebench/results";
/** The run folder's archive/ (SSE_ARCHIVE as `ssebench run` sets it). */
export const ARCHIVE_MOUNT = "/tmp/sse-archive";
/** The reference patch, read-only (the entrypoint's default SSE_REFERENCE_PATCH). */
export const REFERENCE_MOUNT = "/reference/patch.diff";

/** Where a Swarm trial's secrets appear, each under its target name. */
export const SECRETS_DIR = "/run/secrets";
/** the reference patch (SSE_REFERENCE_PATCH points there) */
export const SECRET_PATCH_TARGET = "reference.patch";
/** where the results go home (the entrypoint's default SSE_UPLOAD_FILE) */
export const SECRET_UPLOAD_TARGET = "ssebench-upload";
/** the run's model key and relay addresses (the entrypoint's default SSE_MODEL_FILE) */
export const SECRET_MODEL_TARGET = "ssebench-model";
