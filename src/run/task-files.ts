/**
 * Whether a local task folder holds exactly the files a manifest entry lists (every regular file,
 * dotfiles included, by POSIX path, SHA-256 of the raw bytes; spec dataset-catalog §2.1), so its
 * case image can be built instead of pulled.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

function regularFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(root, full));
    }
  };
  walk(root);
  return out;
}

export async function taskFilesMatch(folder: string, files: Record<string, string>): Promise<boolean> {
  const found = regularFiles(folder);
  if (found.length !== Object.keys(files).length) return false;
  return found.every((rel) => files[rel] === createHash("sha256").update(readFileSync(join(folder, rel))).digest("hex"));
}
