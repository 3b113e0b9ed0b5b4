/**
 * arktype model of a task's `upstream/sources.yaml` (datasets/debian: the pinned Debian source
 * files and the fields of the task's card). The exported JSON Schema is
 * `upstream-sources.schema.json`, and the compiled validator of the valid path comes from it; this
 * module loads only for a file that validator refuses, to name its problems in the rules' words
 * (upstream-sources-rules.ts; the check: upstream-sources-check.ts).
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "../schema/model-info.ts";
import { SOURCES_FIELDS, SOURCES_FILE_FIELDS, SOURCES_PATTERNS, sourcesRule } from "./upstream-sources-rules.ts";

const text = (description: string) => type(SOURCES_PATTERNS.text).describe(description);
// The card's fields: absent (or null) in a file that pins sources only; `ssebench dataset cards` needs them.
const card = (rule: RegExp, description: string) => type(rule).or("null").describe(`${description} (for the card).`).default(null);

export const pinnedFileModel = type({
  "+": "reject",
  url: type(SOURCES_PATTERNS.url).describe("Where the archive serves the file (http or https); its last path segment is the file's name in upstream/."),
  sha256: type(SOURCES_PATTERNS.sha256).describe("The file's sha256, 64 lowercase hex digits."),
});

export const upstreamSourcesModel = type({
  "+": "reject",
  package: text("The Debian source package."),
  version: text("Its version (the .dsc's Version)."),
  cve: card(SOURCES_PATTERNS.cve, "The CVE the task is about"),
  published: card(SOURCES_PATTERNS.date, "The day the CVE was published, YYYY-MM-DD"),
  fixed: card(SOURCES_PATTERNS.date, "The day of the Debian update that fixed it (its DSA/DLA, point release or changelog entry), YYYY-MM-DD"),
  cwe: card(SOURCES_PATTERNS.cwe, "Its weakness class, such as CWE-787"),
  left_out: card(SOURCES_PATTERNS.text, "The debian/patches/ file the task leaves out: the fix"),
  poc: card(SOURCES_PATTERNS.text, "What the PoC shows, in one line"),
  tests: type.enumerated("upstream", "here", null).describe("Where the hidden tests come from: the fix's own (upstream) or written here (for the card).").default(null),
  files: pinnedFileModel.array().atLeastLength(1).describe("Every file dpkg-source needs (and any other input the Dockerfile unpacks)."),
});

export const upstreamSourcesModels: ModelInfo[] = [
  {
    name: "UpstreamSources",
    title: "SSEBench pinned upstream sources",
    description: "A task's upstream/sources.yaml: files ssebench downloads on the host and checks before the case image builds.",
    fields: SOURCES_FIELDS,
  },
  { name: "PinnedFile", title: "PinnedFile", description: "One pinned file.", fields: SOURCES_FILE_FIELDS },
];

const ORDER: readonly string[] = SOURCES_FIELDS;
const FILE_ORDER: readonly string[] = SOURCES_FILE_FIELDS;

/** Where a problem sorts: the file's own order (fields as declared, files by index), unknown keys last. */
function rank(path: readonly PropertyKey[]): number[] {
  const top = ORDER.indexOf(String(path[0]));
  const at = top < 0 ? [ORDER.length] : [top];
  if (path[0] === "files" && typeof path[1] === "number") {
    const inner = FILE_ORDER.indexOf(String(path[2] ?? ""));
    at.push(path[1], path.length < 3 ? -1 : inner < 0 ? SOURCES_FILE_FIELDS.length : inner);
  }
  return at;
}

const before = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) - (b[i] ?? -1);
  return 0;
};

/** The problems of a document the compiled validator refused, one `key: rule` line each, in file order. */
export function sourcesModelProblems(data: unknown): string[] {
  const out = upstreamSourcesModel(data);
  if (!(out instanceof type.errors)) return [];
  const paths = [...out].map((e) => e.path as readonly PropertyKey[]);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const path of paths.sort((a, b) => before(rank(a), rank(b)))) {
    const line = sourcesRule(path);
    if (!seen.has(line)) lines.push(line);
    seen.add(line);
  }
  return lines;
}
