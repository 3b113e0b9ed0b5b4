/**
 * The case image of a task: built from a local task folder (`--local DIR`, or the folder of a
 * catalog task whose files match the manifest), else pulled from the registry by digest when the
 * images lock pins it, else by its version tag (spec dataset-catalog §4.4). A local folder is
 * preferred to a pull: its files equal the published ones, and it needs no network. A folder with
 * pinned upstream sources (upstream/sources.yaml) is built from a staged copy that has them.
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { UserError } from "../../errors.ts";
import { type CaseImageRef } from "../../catalog/image-refs.ts";
import { parseDockerfile } from "../../dataset/dockerfile.ts";
import { InputHash } from "./content-hash.ts";
import { type Docker, dockerOk, firstLine } from "../backends/docker.ts";
import { ensureLayer, type ImageInfo, inspectImages, type LayerResult, refComponent, withTag } from "./layers.ts";
import { msg } from "../messages.ts";
import type { Reporter } from "../reporter.ts";
import { sourcesCacheDir, stageUpstreamContext } from "./upstream-sources.ts";

export interface CaseSource {
  /** local task folder to build from */
  folder: string | undefined;
  /** the local name of the case image */
  tag: string;
  /** what to pull when there is no folder (catalog tasks) */
  pull: CaseImageRef | undefined;
}

/** `<registry>/case/<dataset>/<task>` lower-case, the local name of a folder-built case image. */
export function localCaseTag(registry: string, dataset: string, task: string): string {
  const name = `case/${refComponent(dataset)}/${refComponent(task)}`;
  return withTag(registry ? `${registry}/${name}` : name);
}

/** The images a task Dockerfile starts FROM, with SSEBENCH_REGISTRY applied. */
export function baseImages(dockerfileText: string, registry: string): string[] {
  const refs = parseDockerfile(dockerfileText)
    .stages.map((s) => s.image.replace(/\$\{SSEBENCH_REGISTRY\}|\$SSEBENCH_REGISTRY\b/g, registry))
    .filter((ref) => ref !== "scratch");
  return [...new Set(refs)];
}

/** The base images of a folder-built case image (none for a pulled one). */
export function caseBaseImages(source: CaseSource, registry: string): string[] {
  return source.folder ? baseImages(readFileSync(join(source.folder, "Dockerfile"), "utf8"), registry) : [];
}

/** Hash of a case image's inputs: the task folder's files, the registry and the base images' IDs. */
export function caseInputs(folder: string, registry: string, bases: Map<string, ImageInfo>): string {
  const h = new InputHash().tree("task", folder).value("registry", registry);
  for (const [ref, info] of bases) h.value(`base:${ref}`, info.id);
  return h.digest();
}

/** Builds (if its inputs changed) or pulls the case image; returns its ID. */
export async function ensureCaseImage(
  docker: Docker,
  source: CaseSource,
  registry: string,
  reporter: Reporter,
  signal: AbortSignal,
  known: Map<string, ImageInfo>,
  platform?: string,
  log?: string,
  /** the ssebench home, whose base-image recipe a missing base's message names */
  home = ".",
  labels?: Record<string, string>,
): Promise<LayerResult> {
  if (source.folder) {
    // `known` came from one lookup that included the bases, so a base not in it is not here.
    const baseInfo = new Map<string, ImageInfo>();
    for (const base of caseBaseImages(source, registry)) {
      const info = known.get(base);
      if (!info) throw new UserError(msg.baseImageMissing(base, home));
      baseInfo.set(base, info);
    }
    const inputs = caseInputs(source.folder, registry, baseInfo);
    const cached = known.get(source.tag);
    // Pinned upstream sources are fetched only when the image is to be built (its inputs changed).
    const staged =
      cached?.inputs === inputs
        ? undefined
        : await stageUpstreamContext(source.folder, {
            cacheDir: sourcesCacheDir(),
            signal,
            onDownload: (file) => reporter.info(msg.fetchingSource(file.url)),
          });
    try {
      const context = staged?.context ?? source.folder;
      return await ensureLayer(
        docker,
        { layer: "case image", tag: source.tag, context, buildArgs: { SSEBENCH_REGISTRY: registry }, inputs, log, labels },
        cached,
        reporter,
        signal,
      );
    } finally {
      staged?.cleanup();
    }
  }
  const pull = source.pull;
  if (!pull) throw new UserError(`No case image source for ${source.tag}`);
  const local = known.get(pull.tagRef);
  if (local && !pull.pinned) return { id: local.id, built: false, tag: pull.tagRef };
  if (pull.warning) reporter.warn(pull.warning);
  reporter.start(`Pulling the case image ${pull.ref}`);
  const r = await docker.call(["pull", ...(platform ? ["--platform", platform] : []), pull.ref], { signal });
  if (r.code !== 0) {
    const name = basename(pull.tagRef.split(":")[0] ?? pull.tagRef);
    throw new UserError(
      `Cannot pull ${pull.ref} (${firstLine(r.stderr)}), and there is no local copy of task ${name} to build it from. Check SSEBENCH_REGISTRY, or run the task from its dataset with --local DIR.`,
    );
  }
  if (pull.pinned) await dockerOk(docker, "Tagging the case image", ["tag", pull.ref, pull.tagRef], { signal });
  const info = (await inspectImages(docker, [pull.tagRef])).get(pull.tagRef);
  if (!info) throw new UserError(`docker pull ${pull.ref} succeeded but ${pull.tagRef} is not on this machine`);
  return { id: info.id, built: false, tag: pull.tagRef };
}
