/**
 * Content hashes of image-layer inputs: a layer is rebuilt only when the hash of everything that
 * goes into it (files, build arguments, the image it starts from) differs from the label on the
 * existing image. Large files (the 100 MB entrypoint binary) are hashed once and remembered by
 * (path, size, mtime, inode) in a small cache file, because reading them costs ~0.5 s here.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { cacheDir } from "../home.ts";

const BIG_FILE = 1 << 20;

interface CachedDigest {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
}

function cacheFile(): string {
  return join(cacheDir(process.env, "digests"), "file-digests.json");
}

let cache: Record<string, CachedDigest> | undefined;
let cacheDirty = false;

function loadCache(): Record<string, CachedDigest> {
  if (cache) return cache;
  try {
    cache = JSON.parse(readFileSync(cacheFile(), "utf8")) as Record<string, CachedDigest>;
  } catch {
    cache = {};
  }
  return cache;
}

/** Writes remembered digests of big files; a failure only costs a re-hash next time. */
export function saveDigestCache(): void {
  if (!cache || !cacheDirty) return;
  const file = cacheFile();
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(cache));
    renameSync(`${file}.${process.pid}`, file);
    cacheDirty = false;
  } catch {
    // read-only home: fine
  }
}

/** sha256 (hex) of one file's bytes. */
export function fileDigest(path: string): string {
  const st = statSync(path);
  if (st.size < BIG_FILE) return createHash("sha256").update(readFileSync(path)).digest("hex");
  const known = loadCache()[path];
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ino === st.ino) return known.sha256;
  const sha256 = createHash("sha256").update(readFileSync(path)).digest("hex");
  loadCache()[path] = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 };
  cacheDirty = true;
  return sha256;
}

/** Every regular file below root (relative POSIX paths, sorted), skipping .git folders. */
export function listFiles(root: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const rel = relative(root, full);
      if (entry.name === ".git" || skip(rel)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() || entry.isSymbolicLink()) out.push(rel);
    }
  };
  walk(root);
  return out.sort();
}

/**
 * One hash over named parts: each part is a string value or a file (digest + executable bit,
 * since COPY keeps the mode). Order-independent: parts are sorted by name.
 */
export class InputHash {
  private readonly parts = new Map<string, string>();

  value(name: string, value: string): this {
    this.parts.set(`v:${name}`, value);
    return this;
  }

  file(name: string, path: string): this {
    const executable = (statSync(path).mode & 0o111) !== 0;
    this.parts.set(`f:${name}`, `${fileDigest(path)}${executable ? "+x" : ""}`);
    return this;
  }

  tree(prefix: string, root: string, skip?: (rel: string) => boolean): this {
    for (const rel of listFiles(root, skip)) this.file(`${prefix}/${rel}`, join(root, rel));
    return this;
  }

  digest(): string {
    const h = createHash("sha256");
    for (const key of [...this.parts.keys()].sort()) h.update(`${key}\0${this.parts.get(key)}\n`);
    return h.digest("hex");
  }
}
