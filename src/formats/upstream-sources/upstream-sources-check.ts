/**
 * The check of a parsed `upstream/sources.yaml` that both readers use: `ssebench run` / `dataset
 * verify` before they fetch the pinned files (src/run/layers/upstream-sources.ts) and `dataset validate`
 * offline. A valid file passes the validator compiled from the model (upstream-sources.ts) without
 * loading arktype; the model names the problems of any other. What JSON Schema cannot say (the
 * file name a URL gives, two files of one name) is checked here.
 */
import { validators } from "../compiled-validators.js";
import { SOURCES_DATES, SOURCES_RULES } from "./upstream-sources-rules.ts";

// A file name dpkg-source would accept, and nothing that could climb out of upstream/.
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/;

export interface PinnedFile {
  url: string;
  sha256: string;
  /** the URL's last path segment: the file's name in upstream/ */
  name: string;
}

export interface SourcesDocument {
  package: string;
  version: string;
  /** the card's CVE and the Debian patch left out (dataset verify's leak audit looks for both); null when absent */
  cve: string | null;
  left_out: string | null;
  /** YYYY-MM-DD, null when absent (the card needs them; the format does not) */
  published: string | null;
  fixed: string | null;
  files: PinnedFile[];
}

export type SourcesCheck = { ok: true; value: SourcesDocument } | { ok: false; problems: string[] };

/** The URL's last path segment, decoded; undefined when the URL or its escapes do not parse. */
function urlFileName(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    return undefined;
  }
}

/** The names the URLs give, or the problems of those names. */
function namedFiles(files: readonly { url: string; sha256: string }[]): { files: PinnedFile[]; problems: string[] } {
  const names = new Set<string>();
  const problems: string[] = [];
  const out = files.map(({ url, sha256 }, i): PinnedFile => {
    const at = `files[${i}].url`;
    const name = urlFileName(url);
    if (name === undefined) problems.push(`${at}: ${SOURCES_RULES["files[].url"]}`);
    else if (!FILE_NAME.test(name)) problems.push(`${at}: '${name}' is not a plain file name`);
    else if (names.has(name) || name === "sources.yaml") problems.push(`${at}: a second file named ${name}`);
    names.add(name ?? "");
    return { url, sha256, name: name ?? "" };
  });
  return { files: out, problems };
}

/** `published: 2024-08-30` unquoted is a YAML date (a Date here): the same day as a string. */
function withDayStrings(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const key of SOURCES_DATES) {
    const value = out[key];
    if (value instanceof Date && !Number.isNaN(value.getTime())) out[key] = value.toISOString().slice(0, 10);
  }
  return out;
}

/** A YYYY-MM-DD that names no day of the calendar (2024-02-30), which the pattern lets through. */
function badDays(doc: Record<string, unknown>): string[] {
  return SOURCES_DATES.filter((key) => {
    const value = doc[key];
    return typeof value === "string" && !isDay(value);
  }).map((key) => `${key}: ${SOURCES_RULES[key]}`);
}

const isDay = (value: string) => {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
};

/** Checks a parsed sources.yaml; the problems are `key: rule` lines, in the file's order. */
export function checkUpstreamSources(input: unknown): SourcesCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { ok: false, problems: ["must be a mapping"] };
  const data = withDayStrings(input as Record<string, unknown>);
  if (!validators["upstream-sources"](data)) {
    const { sourcesModelProblems } = require("./upstream-sources.ts") as typeof import("./upstream-sources.ts");
    return { ok: false, problems: sourcesModelProblems(data) };
  }
  const doc = data as {
    package: string;
    version: string;
    cve?: string | null;
    left_out?: string | null;
    published?: string | null;
    fixed?: string | null;
    files: { url: string; sha256: string }[];
  };
  const days = badDays(data);
  const named = namedFiles(doc.files);
  if (days.length + named.problems.length > 0) return { ok: false, problems: [...days, ...named.problems] };
  return {
    ok: true,
    value: {
      package: doc.package.trim(),
      version: doc.version.trim(),
      cve: doc.cve ?? null,
      left_out: doc.left_out?.trim() ?? null,
      published: doc.published ?? null,
      fixed: doc.fixed ?? null,
      files: named.files,
    },
  };
}
