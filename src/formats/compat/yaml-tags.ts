/**
 * PyYAML's `safe_load` builds only the standard tags (null, bool, int, float, binary, timestamp,
 * omap, pairs, set, str, seq, map); any other tag (`!custom`, `!!python/object:…`) fails with
 * "could not determine a constructor for the tag …". The yaml package instead warns and reads the
 * node as if untagged, so both YAML readers ask this module whether a document has such a tag.
 */
import type { Document } from "yaml";

export interface UnknownTag {
  /** the tag as PyYAML names it: `!custom`, `tag:yaml.org,2002:python/object:os.system` */
  tag: string;
  /** offset in the text where PyYAML's node starts (the tag, or an anchor before it) */
  offset: number;
}

// With prettyErrors the yaml package appends ` at line L, column C:` and an excerpt.
const UNRESOLVED = /^Unresolved tag: (.*?)(?: at line \d+, column \d+:[\s\S]*)?$/;

/** Where PyYAML's node starts for a tag at `offset`: at an anchor written before the tag. */
function nodeStart(text: string, offset: number): number {
  const anchor = /&[^\s,[\]{}]+[ \t]+$/.exec(text.slice(0, offset));
  return anchor ? anchor.index : offset;
}

/** The first tag of the document (parsed from `text`) that safe_load has no constructor for. */
export function unknownTag(doc: Document, text: string): UnknownTag | undefined {
  for (const warning of doc.warnings) {
    if (warning.code !== "TAG_RESOLVE_FAILED") continue;
    const tag = UNRESOLVED.exec(warning.message)?.[1] ?? warning.message;
    return { tag, offset: nodeStart(text, warning.pos[0]) };
  }
  return undefined;
}

/** PyYAML's ConstructorError text (the tag in Python's repr). */
export const noConstructorMessage = (tag: string) => `could not determine a constructor for the tag '${tag.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
