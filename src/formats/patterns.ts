/**
 * Constants shared by every dataset format (spec §0.3). Plain data: no arktype, so the start-up
 * path of light commands can use them.
 */
export const TASK_ID_PATTERN = "^[A-Za-z0-9]+(?:(?:[._]|__|-+)[A-Za-z0-9]+)*$";
export const VERSION_PATTERN = "^[a-z0-9]+(?:[._-][a-z0-9]+)*$";
export const SHA256_PATTERN = "^[0-9a-f]{64}$";
export const DIGEST_PATTERN = "^sha256:[0-9a-f]{64}$";
export const COMMIT_PATTERN = "^[0-9a-f]{40}$";
export const TASK_ID_MAX_LENGTH = 128;

export const LANGUAGES = ["c", "go", "rust", "python"] as const;
export const ORIGINALITIES = ["public", "crafted"] as const;
export const CHECKS = ["build", "poc", "function_test", "intent_test"] as const;
export const ARCHES = ["amd64", "arm64"] as const;
export const DEFAULT_ARCH = ["amd64"] as const;

export const REGISTRY_ARG = "SSEBENCH_REGISTRY";
export const REGISTRY_PREFIX = "${SSEBENCH_REGISTRY}/";
export const DEFAULT_REGISTRY = "ghcr.io/42-b3yond-6ug/ssebench";
export const IMAGE_ROOT = "/ssebench";
export const CONFIG_FILE = "sse/config.yaml";
export const DATASET_FILE = "dataset.yaml";
export const MANIFEST_FILE = "manifest.json";
export const LOCK_FILE = "images.lock.json";
export const RECORDS_DIR = "published";

const taskIdRegex = new RegExp(TASK_ID_PATTERN);
export function isTaskId(text: string): boolean {
  return text.length <= TASK_ID_MAX_LENGTH && taskIdRegex.test(text);
}
