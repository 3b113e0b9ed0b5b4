/**
 * Small hand-made catalogs for the catalog tests: three tasks (one pinned, one whose lock entry is
 * stale, one absent from the lock), with the awkward bits a JSON encoder can get wrong.
 */
import { filesDigest } from "../../src/dataset/files-digest.ts";
import type { ImagesLock, Manifest, ManifestTask, TaskMetadata } from "../../src/formats/manifest/manifest-types.ts";

function metadata(id: string, project: string): TaskMetadata {
  return {
    id,
    project,
    repository: `https://example.org/${id}`,
    language: "go",
    source: "/src/app",
    task_description: { issue: "a <b> & c\u2028line", crash_report: null, bug_description: null },
    scripts: { build: "sse/build.sh", run: "sse/run.sh", test: null },
    files: { patch: null, future_test: null, security_test: null, intent_test: null, poc: ["sse/pocs/poc"] },
    sanitizer: null,
    type: null,
    binary: null,
    trigger_commit: null,
    patch_commit: null,
    reference: null,
    originality: null,
  };
}

function task(id: string, project: string, files: Record<string, string>): ManifestTask {
  return {
    id,
    language: "go",
    project,
    repository: `https://example.org/${id}`,
    base: "base-generic-go:1.0.0",
    image: `case/demo/${id.toLowerCase()}`,
    arch: ["amd64"],
    checks: ["build", "poc"],
    files,
    metadata: metadata(id, project),
  };
}

const h = (n: number) => n.toString(16).padStart(64, "0");

/** File order deliberately not sorted, and with an integer-like name JS objects would reorder. */
export const pinnedFiles = { Dockerfile: h(1), "sse/config.yaml": h(2), "10": h(3), "a\u{1F600}": h(4), "a\uFF21": h(5) };

export function demoManifest(): Manifest {
  return {
    dataset: "demo",
    version: "demo-v1",
    tasks: [
      task("zeta-1", "zeta <&>\u2028x", { Dockerfile: h(6) }),
      task("Alpha-2", "alpha", pinnedFiles),
      task("mid-3", "mid", { Dockerfile: h(7) }),
    ],
  };
}

export const digestOf = (n: number) => `sha256:${h(100 + n)}`;

export function demoLock(manifest = demoManifest()): ImagesLock {
  const [zeta, alpha] = manifest.tasks as [ManifestTask, ManifestTask, ManifestTask];
  return {
    dataset: "demo",
    version: "demo-v1",
    images: {
      "Alpha-2": { digest: digestOf(1), files_sha256: filesDigest(alpha.files ?? {}), revision: "f".repeat(40) },
      "zeta-1": { digest: digestOf(2), files_sha256: filesDigest({ ...zeta.files, extra: h(9) }), revision: "f".repeat(40) },
    },
  };
}

export const REGISTRY = "registry.example/ns/";

/** Writes the demo manifest (and optionally a lock) into a folder, as the dataset tools render them. */
export async function writeCatalogFiles(
  dir: string,
  options: { lock?: ImagesLock | string | null; manifest?: Manifest | string } = {},
): Promise<{ manifestPath: string; lockPath: string }> {
  const { renderManifest } = await import("../../src/formats/manifest/manifest.ts");
  const { renderImagesLock } = await import("../../src/formats/manifest/images-lock.ts");
  const manifestPath = `${dir}/manifest.json`;
  const lockPath = `${dir}/images.lock.json`;
  const manifest = options.manifest ?? demoManifest();
  await Bun.write(manifestPath, typeof manifest === "string" ? manifest : renderManifest(manifest));
  const lock = options.lock === undefined ? demoLock() : options.lock;
  if (lock !== null) await Bun.write(lockPath, typeof lock === "string" ? lock : renderImagesLock(lock));
  return { manifestPath, lockPath };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export function closedPort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}
