/**
 * The reference patch, copied out of the case image (so a pulled image works as well as a local
 * folder) into a private temp folder, for a read-only mount into the reference agent's container.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Docker, dockerOk } from "./backends/docker.ts";

export interface ExtractedPatch {
  path: string;
  cleanup(): void;
}

export async function extractReferencePatch(
  docker: Docker,
  caseImage: string,
  patchPath: string,
  platform: string | undefined,
): Promise<ExtractedPatch> {
  const dir = mkdtempSync(join(tmpdir(), "ssebench-reference-"));
  const path = join(dir, "patch.diff");
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const create = ["create", ...(platform ? ["--platform", platform] : []), "--network", "none", caseImage, "true"];
    const cid = (await dockerOk(docker, "Reading the reference patch", create)).stdout.trim();
    try {
      await dockerOk(docker, "Reading the reference patch", ["cp", "--follow-link", `${cid}:/ssebench/${patchPath}`, path]);
    } finally {
      await docker.call(["rm", "--force", cid]);
    }
    // root-only: the container's root (the entrypoint) reads it, the agent user cannot.
    chmodSync(path, 0o600);
    return { path, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
