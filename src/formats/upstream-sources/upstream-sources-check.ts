/**
 * The check of a parsed `upstream/sources.yaml` that both readers use: `ssebench run` / `dataset
 * verify` before they fetch the pinned files (src/run/layers/upstream-sources.ts) and `dataset validate`
 * offline. A valid file passes the validator compiled from the model (upstream-sources.ts) without
 * loading arktype; the model names the problems of any other. What JSON Schema cannot say (the
 * file name a URL gives, two files of one name) is checked here.
 */
import { validators } from "../compiled-validators.js";
import { SOURCES_RULES } from "./upstream-sources-rules.ts";

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

/** Checks a parsed sources.yaml; the problems are `key: rule` lines, in the file's order. */
export function checkUpstreamSources(data: unknown): SourcesCheck {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { ok: false, problems: ["must be a mapping"] };
  if (!validators["upstream-sources"](data)) {
    const { sourcesModelProblems } = require("./upstream-sources.ts") as typeof import("./upstream-sources.ts");
    return { ok: false, problems: sourcesModelProblems(data) };
  }
  const doc = data as { package: string; version: string; files: { url: string; sha256: string }[] };
  const named = namedFiles(doc.files);
  if (named.problems.length > 0) return { ok: false, problems: named.problems };
  return { ok: true, value: { package: doc.package.trim(), version: doc.version.trim(), files: named.files } };
}
