/**
 * What a task's agent must not find in its image (issue 28): the task's CVE id, its upstream fix
 * commit and the name of the Debian patch it leaves out, and the file names of the Debian
 * package's patches. dataset verify's leak audit (image-audit.ts) looks for them.
 */
import type { TaskMetadata } from "../../formats/manifest/manifest-types.ts";
import { fetchPinnedSources, readPinnedSources, sourcesCacheDir, type PinnedSources } from "../layers/upstream-sources.ts";

export interface TaskSecrets {
  /** fixed strings, matched without regard to case: a file the agent can read that holds one leaks the answer */
  text: string[];
  /** base names of the Debian package's patch files (debian/patches/*.patch, *.diff): none may be in the image */
  patchNames: string[];
}

const CVE_IN_ID = /cve-\d{4}-\d{4,}/i;
// A commit in a reference URL: GitHub/GitLab …/commit/<sha>, cgit ?id=<sha>, or any full sha.
const COMMIT_IN_URL = [/\/commits?\/([0-9a-f]{7,40})(?![0-9a-f])/gi, /[?&;]id=([0-9a-f]{7,40})(?![0-9a-f])/gi, /(?<![0-9a-f])([0-9a-f]{40})(?![0-9a-f])/gi];
/** How much of a commit hash is looked for: a full hash and every abbreviation of 12 or more. */
export const COMMIT_PREFIX = 12;
const DEBIAN_TARBALL = /\.debian\.tar\.(?:xz|gz|bz2)$/;
const PATCH_ENTRY = /^(?:\.\/)?debian\/patches\/(?:.*\/)?([^/]+\.(?:patch|diff))$/;

/** The fix commits named by the task's `reference` URLs and `patch_commit`, as lowercase prefixes. */
export function fixCommits(meta: Pick<TaskMetadata, "reference" | "patch_commit">): string[] {
  const found = new Set<string>();
  const add = (sha: string) => found.add(sha.toLowerCase().slice(0, COMMIT_PREFIX));
  for (const url of meta.reference ?? []) {
    for (const re of COMMIT_IN_URL) for (const m of url.matchAll(re)) add(m[1] as string);
  }
  if (meta.patch_commit && /^[0-9a-f]{7,40}$/i.test(meta.patch_commit)) add(meta.patch_commit);
  return [...found];
}

/** The task's CVE id: sources.yaml's `cve`, else the one its id names (`…-cve-2024-45490`). */
export function taskCve(id: string, sources: Pick<PinnedSources, "cve"> | undefined): string | undefined {
  return sources?.cve ?? CVE_IN_ID.exec(id)?.[0].toUpperCase();
}

/** Base names of the patch files a Debian tarball listing (`tar -t`) has under debian/patches/. */
export function debianPatchNames(listing: string): string[] {
  const names = new Set<string>();
  for (const line of listing.split("\n")) {
    const m = PATCH_ENTRY.exec(line.trim());
    if (m) names.add(m[1] as string);
  }
  return [...names].sort();
}

/** Lists the pinned Debian tarball (fetched into the sources cache when it is not there); [] when the task pins none. */
async function listDebianTarball(pins: PinnedSources, env: NodeJS.ProcessEnv): Promise<string> {
  const tarball = pins.files.find((f) => DEBIAN_TARBALL.test(f.name));
  if (!tarball) return "";
  const paths = await fetchPinnedSources({ ...pins, files: [tarball] }, { cacheDir: sourcesCacheDir(env) });
  const path = paths.get(tarball.name) as string;
  const tar = Bun.spawnSync(["tar", "-tf", path], { stdout: "pipe", stderr: "pipe" });
  if (tar.exitCode !== 0) throw new Error(`tar -tf ${tarball.name}: ${tar.stderr.toString().trim().split("\n").at(-1)}`);
  return tar.stdout.toString();
}

/** Everything the audit looks for in the image of the task at `folder`. */
export async function taskSecrets(folder: string, id: string, meta: Pick<TaskMetadata, "reference" | "patch_commit">, env: NodeJS.ProcessEnv): Promise<TaskSecrets> {
  const pins = await readPinnedSources(folder);
  const cve = taskCve(id, pins);
  const leftOut = pins?.left_out ?? undefined;
  const text = [...new Set([cve, ...fixCommits(meta), leftOut].filter((s): s is string => typeof s === "string" && s.length > 0))];
  const patchNames = pins ? debianPatchNames(await listDebianTarball(pins, env)) : [];
  if (leftOut && !patchNames.includes(leftOut)) patchNames.unshift(leftOut);
  return { text, patchNames };
}
