/**
 * The keys and rules of a dataset's `verified.json` (the verification records of `dataset verify
 * --record`), in the words every message uses: the model (verified.ts) is built from them, and a
 * file it refuses is reported as `<key path>: <rule>`. No imports, so light modules can use them.
 */

export const VERIFIED_FIELDS = ["dataset", "records"] as const;
export const RECORD_FIELDS = ["key", "task_files", "base_recipe", "grading_code", "recorded", "ssebench", "repeats", "seconds", "audit_seconds", "ways"] as const;
export const WAY_FIELDS = ["run_seconds", "checks"] as const;
export const CHECK_FIELDS = ["status", "check_seconds"] as const;
/** The two ways a task is verified (dataset verify's agents). */
export const WAYS = ["reference", "dummy"] as const;
export const CHECK_STATUSES = ["passed", "failed", "timeout", "error", "not run"] as const;

export const VERIFIED_PATTERNS = {
  sha256: /^[0-9a-f]{64}$/,
  time: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
  text: /\S/,
};

/** What each key must be, by its name (the names are unique across the file's mappings). */
export const VERIFIED_RULES: Record<string, string> = {
  dataset: "must be a non-empty string",
  records: "must be a mapping of task id to record",
  key: "must be 64 lowercase hex digits",
  task_files: "must be 64 lowercase hex digits",
  base_recipe: "must be 64 lowercase hex digits",
  grading_code: "must be 64 lowercase hex digits",
  recorded: "must be a UTC time, YYYY-MM-DDTHH:MM:SSZ",
  ssebench: "must be a non-empty string",
  repeats: "must be a whole number of at least 1",
  seconds: "must be a number of seconds, 0 or more",
  audit_seconds: "must be a number of seconds, 0 or more",
  ways: "must be a mapping with reference and dummy",
  reference: "must be a mapping with run_seconds and checks",
  dummy: "must be a mapping with run_seconds and checks",
  run_seconds: "must be a list of seconds, one per repetition",
  checks: "must be a mapping of check name to {status, check_seconds}",
  status: `must be one of ${CHECK_STATUSES.join(", ")}`,
  check_seconds: "must be a list of seconds, one per repetition",
};

const KNOWN: Record<string, readonly string[]> = {
  file: VERIFIED_FIELDS,
  record: RECORD_FIELDS,
  ways: WAYS,
  way: WAY_FIELDS,
  check: CHECK_FIELDS,
};

/** `records.expat.ways.reference.checks["poc pocs/x.c"].status` for a problem's path. */
export function verifiedKey(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => {
      const s = String(p);
      if (typeof p === "number") return `[${p}]`;
      const plain = /^[A-Za-z0-9_-]+$/.test(s);
      return plain ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`;
    })
    .join("");
}

/** Which mapping a path's last key is in: the file, a record, its ways, a way, a check. */
function levelOf(path: readonly PropertyKey[]): string {
  if (path.length <= 1) return "file";
  if (path[0] !== "records") return "file";
  // by depth: records.<id>.<field>, .ways.<way>, .ways.<way>.<field>, .checks.<name>.<field>
  return ["file", "file", "record", "record", "ways", "way", "check", "check"][path.length] ?? "check";
}

/** The one line for a problem at `path`: its rule, or that the key is not one of its mapping's. */
export function verifiedRule(path: readonly PropertyKey[]): string {
  const key = verifiedKey(path);
  const last = path.at(-1);
  const level = levelOf(path);
  const known = KNOWN[level] as readonly string[];
  // a task id under records, a check name under checks: any name is allowed, so the rule is its value's
  if (path.length === 2 && path[0] === "records") return `${key}: must be a record (${RECORD_FIELDS.join(", ")})`;
  if (path.length === 6 && path[4] === "checks") return `${key}: must be a mapping with ${CHECK_FIELDS.join(" and ")}`;
  if (typeof last === "string" && known.includes(last)) return `${key}: ${VERIFIED_RULES[last]}`;
  if (path.length === 0) return "must be a mapping with dataset and records";
  return `${key}: is not a key of ${level === "file" ? "verified.json" : `a ${level === "ways" ? "record's ways" : level}`} (${known.join(", ")})`;
}
