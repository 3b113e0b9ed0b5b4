/** ATIF's versions, without the model (light modules import this; the model loads arktype). */
export const ATIF_VERSIONS = ["ATIF-v1.0", "ATIF-v1.1", "ATIF-v1.2", "ATIF-v1.3", "ATIF-v1.4", "ATIF-v1.5", "ATIF-v1.6", "ATIF-v1.7"] as const;
/** The version ssebench writes. */
export const ATIF_VERSION = "ATIF-v1.7";
