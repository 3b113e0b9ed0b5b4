/** `ssebench-entrypoint artifact`: $SSE_ARCHIVE/artifact/manifest.json (docs/container-contract.md §9). */
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pythonJson } from "../../formats/compat/json-compat.ts";
import { pluginCommandSettings } from "../config.ts";
import { writeAtomic } from "../fs-util.ts";
import { writeOut } from "../write-out.ts";

interface FileEntry {
  path: string;
  size_bytes: number;
  sha256: string;
  producer: string;
}

export function producerOf(name: string): string {
  if (name === "dialog.jsonl") return "agent";
  if (name === "final.patch" || name === "commits.log" || name.startsWith("scriptrunner-") || name.startsWith("patch-")) return "daemon";
  if (name === "result.json" || name === "source.tar.gz") return "evaluator";
  if (name.endsWith(".log")) return "entrypoint";
  return "other";
}

function identity(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** The identity of a real folder only: the agent owned the archive and may have left a symlink there. */
function folderIdentity(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Hashed in chunks: a file of many GB (a sparse one the agent left, say) must not be read whole. */
function sha256Of(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hasher.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hasher.digest("hex");
}

function walk(root: string, prefix: string, skip: Set<string>, seen: Set<string>): FileEntry[] {
  const out: FileEntry[] = [];
  const visit = (dir: string, rel: string) => {
    const id = identity(dir);
    if (!id || seen.has(id) || skip.has(id)) return;
    seen.add(id);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path);
      if (st.isDirectory()) visit(path, relPath);
      else if (st.isFile()) {
        const sha256 = sha256Of(path);
        out.push({ path: prefix + relPath, size_bytes: st.size, sha256, producer: producerOf(basename(path)) });
      }
    }
  };
  visit(root, "");
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Python's datetime.now(UTC).isoformat(): microseconds and +00:00. */
function pythonIsoNow(): string {
  return new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

export function writeManifest(env: Record<string, string | undefined>): number {
  const { results, archive, skipFile } = pluginCommandSettings(env);
  let isDir = false;
  try {
    isDir = statSync(results).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    writeOut(1, `[artifact] SSE_RESULTS ${results} is not a directory; skipping\n`);
    if (skipFile) writeFileSync(skipFile, `SSE_RESULTS ${results} is not a directory\n`);
    return 0;
  }
  const skip = new Set([folderIdentity(join(archive, "artifact")), folderIdentity(join(archive, "plugins"))].filter((x): x is string => !!x));
  const seen = new Set<string>();
  const files = walk(results, "", skip, seen);
  const archiveId = identity(archive);
  if (archiveId && !seen.has(archiveId)) files.push(...walk(archive, "archive/", skip, seen));
  const manifest = {
    generated_at: pythonIsoNow(),
    results,
    file_count: files.length,
    total_bytes: files.reduce((n, f) => n + f.size_bytes, 0),
    files,
  };
  const out = join(archive, "artifact");
  // The agent owned the archive: whatever it left at this name (a symlink out, say) is not ours.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true, mode: 0o755 });
  const path = join(out, "manifest.json");
  writeAtomic(path, `${pythonJson(manifest, 2)}\n`);
  writeOut(1, `[artifact] wrote manifest of ${files.length} files to ${path}\n`);
  return 0;
}
