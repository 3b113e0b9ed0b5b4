/**
 * The keys and rules of `upstream/sources.yaml`, in the words every message uses: the model
 * (upstream-sources.ts) is built from them and upstream-sources-check.ts reports with them. No
 * imports: the validator compiler loads this through the model before the validators exist.
 */

export const SOURCES_FIELDS = ["package", "version", "cve", "published", "fixed", "cwe", "left_out", "poc", "tests", "files"] as const;
/** The keys whose value is a day, YYYY-MM-DD (a YAML date unquoted, or a string). */
export const SOURCES_DATES = ["published", "fixed"] as const;
export const SOURCES_FILE_FIELDS = ["url", "sha256"] as const;

export const SOURCES_PATTERNS = {
  text: /\S/,
  url: /^https?:\/\/[^/\s]+\/\S+$/,
  sha256: /^[0-9a-f]{64}$/,
  cve: /^CVE-\d{4}-\d{4,}$/,
  cwe: /^CWE-\d+$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
};

/** What each key must be, as every message says it. */
export const SOURCES_RULES: Record<string, string> = {
  package: "must be a non-empty string",
  version: "must be a non-empty string",
  cve: "must look like CVE-2024-45490",
  published: "must be a date, YYYY-MM-DD",
  fixed: "must be a date, YYYY-MM-DD",
  cwe: "must look like CWE-787",
  left_out: "must be a non-empty string",
  poc: "must be a non-empty string",
  tests: "must be upstream or here",
  files: "must be a non-empty list of {url, sha256}",
  "files[]": "must be a mapping with url and sha256",
  "files[].url": "must be an http(s) URL of a file",
  "files[].sha256": "must be 64 lowercase hex digits",
};

/** `files[0].url` for the path [files, 0, url]. */
export function sourcesKey(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/** The one line for a problem at `path`: its rule, or that the key is not one of the file's. */
export function sourcesRule(path: readonly PropertyKey[]): string {
  const key = sourcesKey(path);
  const generic = path.map((p, i) => (typeof p === "number" ? "[]" : i === 0 ? String(p) : `.${String(p)}`)).join("");
  const rule = SOURCES_RULES[generic];
  if (rule) return `${key}: ${rule}`;
  const known = path.length > 1 ? SOURCES_FILE_FIELDS : SOURCES_FIELDS;
  return `${key}: is not a key of ${path.length > 1 ? "a pinned file" : "sources.yaml"} (${known.join(", ")})`;
}
