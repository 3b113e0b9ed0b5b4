/**
 * Reads a task's Dockerfile the way the reference does (spec §1.3, exact): logical lines, global
 * ARGs, stages with their WORKDIR and COPY/ADD sources, and where a path of the case image comes
 * from. Not a Dockerfile parser: no heredocs, no escape directive, tabs do not separate keywords.
 */
import { type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { REGISTRY_ARG } from "../formats/patterns.ts";
import { dockerfileMessages as m } from "./messages.ts";
import { posixJoin, posixNormpath, posixRelpath, pythonRepr, pythonSplitLines } from "./python-text.ts";
import { pythonStrip } from "../formats/compat/strip.ts";
import { shlexSplit } from "./shlex.ts";

export interface CopySource {
  /** normalised source, relative to the task folder */
  source: string;
  /** destination joined onto the workdir (a `/` appended with several sources) */
  dest: string;
}

export interface Stage {
  image: string;
  workdir: string;
  copies: CopySource[];
}

export interface Dockerfile {
  /** global ARGs before the first FROM: name → default (null: declared without one) */
  globalArgs: Map<string, string | null>;
  stages: Stage[];
  /** the final stage */
  final: Stage;
}

export class DockerfileError extends Error {}

/** Physical lines → logical lines (continuations joined, comments and blanks dropped). */
export function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = "";
  for (const physical of pythonSplitLines(text)) {
    const line = pythonStrip(physical);
    if (line === "" || line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${pythonStrip(line.slice(0, -1))} `;
      continue;
    }
    lines.push(pending + line);
    pending = "";
  }
  if (pending !== "") lines.push(pythonStrip(pending));
  return lines;
}

// Python's \w is Unicode-aware.
const W = "[\\p{L}\\p{N}_]";
const ARG_RE = new RegExp(`^ARG\\s+(${W}+)(?:=(\\S*))?$`, "iu");
const FROM_RE = /^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i;
const VAR_RE = new RegExp(`\\$\\{(${W}+)\\}|\\$(${W}+)`, "gu");

function stripQuotes(value: string): string {
  return value.replace(/^["']+|["']+$/g, "");
}

function substitute(image: string, args: Map<string, string | null>): string {
  return image.replace(VAR_RE, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as string;
    const value = args.get(name);
    return name === REGISTRY_ARG || value === null || value === undefined || value === "" ? `\${${name}}` : value;
  });
}

function parseCopy(rest: string, workdir: string): CopySource[] | "ignored" {
  let args: string[];
  try {
    if (rest.startsWith("[")) {
      const parsed: unknown = JSON.parse(rest);
      if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw new Error("not a list of strings");
      args = parsed;
    } else args = shlexSplit(rest);
  } catch {
    throw new DockerfileError(m.cannotParseCopy(pythonRepr(rest)));
  }
  if (args.some((a) => a.startsWith("--from"))) return "ignored";
  args = args.filter((a) => !a.startsWith("--"));
  if (args.length < 2) throw new DockerfileError(m.cannotParseCopy(pythonRepr(rest)));
  const sources = args.slice(0, -1);
  let dest = posixJoin(workdir, args.at(-1) as string);
  if (sources.length > 1 && !dest.endsWith("/")) dest += "/";
  return sources.filter((s) => !s.includes("://")).map((s) => ({ source: posixNormpath(s.replace(/^\/+/, "")), dest }));
}

/** Parses Dockerfile text; throws DockerfileError with the reference's message. */
export function parseDockerfile(text: string): Dockerfile {
  const globalArgs = new Map<string, string | null>();
  const stages: Stage[] = [];
  const aliases = new Map<string, Stage>();
  for (const line of logicalLines(text)) {
    const space = line.indexOf(" ");
    const keyword = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const rest = space < 0 ? "" : line.slice(space + 1);
    const stage = stages.at(-1);
    if (keyword === "ARG" && !stage) {
      const match = ARG_RE.exec(line);
      if (match) globalArgs.set(match[1] as string, match[2] === undefined ? null : stripQuotes(match[2]));
    } else if (keyword === "FROM") {
      const match = FROM_RE.exec(line);
      if (!match) throw new DockerfileError(m.cannotParseFrom(pythonRepr(line)));
      const image = substitute(match[1] as string, globalArgs);
      const parent = aliases.get(image.toLowerCase());
      const next: Stage = parent
        ? { image: parent.image, workdir: parent.workdir, copies: [...parent.copies] }
        : { image, workdir: "/", copies: [] };
      stages.push(next);
      if (match[2] !== undefined) aliases.set(match[2].toLowerCase(), next);
    } else if (keyword === "WORKDIR" && stage) {
      stage.workdir = posixJoin(stage.workdir, rest);
    } else if ((keyword === "COPY" || keyword === "ADD") && stage) {
      const copies = parseCopy(rest, stage.workdir);
      if (copies !== "ignored") stage.copies.push(...copies);
    }
  }
  const final = stages.at(-1);
  if (!final) throw new DockerfileError(m.noFrom);
  return { globalArgs, stages, final };
}

/** A ref has a version: a digest, or a tag that is set, not `latest` and not a variable. */
export function isPinned(ref: string): boolean {
  if (ref.includes("@")) return true;
  const last = ref.slice(ref.lastIndexOf("/") + 1);
  const colon = last.indexOf(":");
  if (colon < 0) return false;
  const tag = last.slice(colon + 1);
  return tag !== "" && tag !== "latest" && !tag.includes("$");
}

export type StatFn = (path: string) => Stats | null;

export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** The task file that the final stage puts at `imagePath`, or null (spec §1.3 `resolve`). */
export function resolveImagePath(taskDir: string, dockerfile: Dockerfile, imagePath: string, stat: StatFn = statOrNull): string | null {
  const copies = dockerfile.final.copies;
  for (let i = copies.length - 1; i >= 0; i--) {
    const { source, dest } = copies[i] as CopySource;
    const sourcePath = join(taskDir, source);
    const info = stat(sourcePath);
    if (info?.isDirectory()) {
      const dir = dest.replace(/\/+$/, "") || "/";
      if (imagePath === dir || imagePath.startsWith(dir === "/" ? "/" : `${dir}/`)) {
        const candidate = join(sourcePath, posixRelpath(imagePath, dir));
        if (stat(candidate)?.isFile()) return candidate;
      }
    } else if (info) {
      const target = dest.endsWith("/") ? posixJoin(dest, source.slice(source.lastIndexOf("/") + 1)) : dest;
      if (target === imagePath) return sourcePath;
    }
  }
  return null;
}
