/**
 * Finding a Debian source package in the archive for `dataset new --debian SOURCE=VERSION`: its
 * .dsc in the main pool or the security pool, and the files it lists (with their sha256), each
 * downloaded into the sources cache ssebench builds case images from.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeCause, UserError } from "../../errors.ts";
import { newMessages as m } from "./messages.ts";

/** The two archives a bookworm package's versions live in (deb.debian.org serves both). */
export const ARCHIVES = [
  { base: "http://deb.debian.org/debian", pool: "pool/main" },
  { base: "http://deb.debian.org/debian-security", pool: "pool/updates/main" },
] as const;
const TIMEOUT_MS = 300_000;

export type Fetch = (url: string, init: { signal: AbortSignal; method?: "HEAD" }) => Promise<Response>;

export interface DscFile {
  name: string;
  sha256: string;
  size: number;
  /** where it is downloaded from: beside the .dsc, or (fetchDscFiles) the other pool that has it */
  url: string;
}

export interface Dsc {
  /** the .dsc's own URL and sha256 */
  url: string;
  sha256: string;
  source: string;
  version: string;
  format: string;
  /** every file the .dsc lists, in its order */
  files: DscFile[];
}

/** `SOURCE=VERSION` as given on the command line; undefined when it is not that shape. */
export function parseSourceVersion(arg: string): { source: string; version: string } | undefined {
  const m = /^([a-z0-9][a-z0-9+.-]+)=([0-9][A-Za-z0-9.+~:-]*)$/.exec(arg.trim());
  return m ? { source: m[1] as string, version: m[2] as string } : undefined;
}

/** The pool folder of a source package: `libc/libcap2`, `e/expat`. */
export function poolFolder(source: string): string {
  return `${source.startsWith("lib") && source.length > 3 ? source.slice(0, 4) : source[0]}/${source}`;
}

/** The file name part of a version: without its epoch (`1:2.66-4` → `2.66-4`). */
export const versionInFileName = (version: string) => version.replace(/^\d+:/, "");

/** A file of SOURCE in each pool, main pool first. */
const poolUrls = (source: string, name: string) => ARCHIVES.map((a) => `${a.base}/${a.pool}/${poolFolder(source)}/${name}`);

/** Every place the .dsc of SOURCE=VERSION can be, main pool first. */
export function dscUrls(source: string, version: string): string[] {
  return poolUrls(source, `${source}_${versionInFileName(version)}.dsc`);
}

/** Parses a .dsc (deb822; a PGP signature around it is skipped). */
export function parseDsc(text: string, url: string, sha256: string): Dsc {
  const body = text.replace(/^-----BEGIN PGP SIGNED MESSAGE-----\n(?:Hash:.*\n)*\n/, "").replace(/\n-----BEGIN PGP SIGNATURE-----[\s\S]*$/, "\n");
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, "m").exec(body)?.[1]?.trim() ?? "";
  const files: DscFile[] = [];
  const folder = url.slice(0, url.lastIndexOf("/") + 1);
  const section = /^Checksums-Sha256:[ \t]*\n((?:[ \t]+.*\n?)*)/m.exec(body)?.[1] ?? "";
  for (const line of section.split("\n")) {
    const [sha, size, name] = line.trim().split(/\s+/);
    if (sha && size && name && /^[0-9a-f]{64}$/.test(sha)) files.push({ name, sha256: sha, size: Number(size), url: folder + name });
  }
  return { url, sha256, source: field("Source"), version: field("Version"), format: field("Format"), files };
}

/** GETs url (HEAD with `head`: only whether it is there, as status 200 and no bytes). */
async function download(url: string, fetcher: Fetch, head = false): Promise<{ status: number; bytes?: Uint8Array }> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetcher(url, head ? { signal, method: "HEAD" } : { signal });
  } catch (cause) {
    throw new UserError(m.downloadFailed(url, signal.aborted ? `no answer in ${TIMEOUT_MS / 1000}s` : describeCause(cause)));
  }
  if (!response.ok || head) {
    await response.body?.cancel();
    return { status: response.status };
  }
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Puts bytes into the sources cache under their sha256 (whole and checked, by a rename). */
function cacheBytes(cacheDir: string, sha256: string, bytes: Uint8Array): string {
  const path = join(cacheDir, "sha256", sha256);
  if (existsSync(path)) return path;
  const partial = `${path}.${process.pid}.partial`;
  try {
    mkdirSync(join(cacheDir, "sha256"), { recursive: true });
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch (cause) {
    rmSync(partial, { force: true });
    throw new UserError(m.cacheUnwritable(cacheDir, describeCause(cause)));
  }
  return path;
}

/** Finds and downloads the .dsc of SOURCE=VERSION; one line naming both places when neither has it. */
export async function fetchDsc(source: string, version: string, cacheDir: string, fetcher: Fetch): Promise<Dsc> {
  const tried: string[] = [];
  for (const url of dscUrls(source, version)) {
    const got = await download(url, fetcher);
    if (!got.bytes) {
      if (got.status !== 404 && got.status !== 410) throw new UserError(m.downloadFailed(url, `HTTP ${got.status}`));
      tried.push(url);
      continue;
    }
    const sha256 = sha256Of(got.bytes);
    cacheBytes(cacheDir, sha256, got.bytes);
    const dsc = parseDsc(new TextDecoder().decode(got.bytes), url, sha256);
    if (dsc.files.length === 0) throw new UserError(m.dscWithoutFiles(url));
    return dsc;
  }
  throw new UserError(m.notInArchive(source, version, tried));
}

/** The places a file of the .dsc can be: beside it, then the same name in the other pool. */
export function fileUrls(dsc: Dsc, file: DscFile): string[] {
  return [...new Set([file.url, ...poolUrls(dsc.source, file.name)])];
}

/**
 * Downloads every file the .dsc lists into the cache, checked; returns name → cache path. A file the
 * .dsc's pool lacks is looked for in the other one (seen: python-tornado 6.2.0-3+deb12u4's .dsc in
 * the main pool, its orig tarball only in the security pool), and its `url` says where it was found.
 */
export async function fetchDscFiles(dsc: Dsc, cacheDir: string, fetcher: Fetch): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const file of dsc.files) {
    const cached = join(cacheDir, "sha256", file.sha256);
    // A cached file is only looked for (HEAD), so that its url is one the archive serves.
    const have = existsSync(cached) && sha256Of(readFileSync(cached)) === file.sha256;
    let where: { url: string; bytes?: Uint8Array } | undefined;
    for (const url of fileUrls(dsc, file)) {
      const got = await download(url, fetcher, have);
      if (got.status >= 200 && got.status < 300) {
        where = { url, bytes: got.bytes };
        break;
      }
      if (got.status !== 404 && got.status !== 410) throw new UserError(m.downloadFailed(url, `HTTP ${got.status}`));
    }
    if (!where) throw new UserError(m.fileMissing(file.url, dsc.url));
    file.url = where.url;
    const bytes = where.bytes;
    if (!bytes) {
      paths.set(file.name, cached);
      continue;
    }
    const actual = sha256Of(bytes);
    if (actual !== file.sha256) throw new UserError(m.fileMismatch(file.url, actual, file.sha256));
    paths.set(file.name, cacheBytes(cacheDir, actual, bytes));
  }
  return paths;
}
