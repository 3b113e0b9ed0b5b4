/**
 * Exit 0 when a finished `dataset verify` record (OUT/tasks/<id>.json) passed and graded a case
 * image built from exactly the task folder's current files and the current base images — the
 * same inputs hash `ssebench run` compares before reusing a case image. Used by
 * scripts/dev/verify-dataset-cached.sh --stamp-from OUT, so a verify already run on this machine need
 * not be run again for CI's stamps; anything else (failed, another image, changed files) exits 1
 * with one line saying why.
 *
 *   bun scripts/dev/verified-image-current.ts OUT/tasks/<id>.json TASK_FOLDER
 */
import { readFileSync } from "node:fs";
import { DEFAULT_REGISTRY, normaliseRegistry } from "../../src/catalog/image-refs.ts";
import { baseImages, caseInputs } from "../../src/run/layers/case-image.ts";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { inspectImages } from "../../src/run/layers/layers.ts";

const [recordPath, folder] = process.argv.slice(2);
if (!recordPath || !folder) {
  console.error("usage: bun scripts/dev/verified-image-current.ts OUT/tasks/<id>.json TASK_FOLDER");
  process.exit(2);
}
const no = (why: string): never => {
  console.error(`${recordPath}: not usable as a stamp: ${why}`);
  process.exit(1);
};

let record: { ok?: unknown; runs?: Record<string, { image?: unknown }> };
try {
  record = JSON.parse(readFileSync(recordPath, "utf8"));
} catch (e) {
  no(`cannot read it (${(e as Error).message})`);
  throw e;
}
if (record.ok !== true) no("the verify did not pass");
const images = new Set(["reference", "dummy"].map((agent) => record.runs?.[agent]?.image));
const [image] = images;
if (images.size !== 1 || typeof image !== "string") no("the reference and dummy runs did not grade one case image");

// One lookup, with run's own parsing, for the graded image and the bases its inputs hash names.
const registry = normaliseRegistry(process.env.SSEBENCH_REGISTRY?.trim() || DEFAULT_REGISTRY);
const baseRefs = baseImages(readFileSync(`${folder}/Dockerfile`, "utf8"), registry);
const known = await inspectImages(new DockerCli(), [image as string, ...baseRefs]);
const graded = known.get(image as string) ?? no(`the graded case image ${image} is no longer on this engine`);
const bases = new Map(baseRefs.map((ref) => [ref, known.get(ref) ?? no(`its base image ${ref} is not on this engine`)]));
const current = caseInputs(folder, registry, bases);
if (graded.inputs !== current) no(`the graded image was built from other inputs (${graded.inputs.slice(0, 12)}) than ${folder} has now (${current.slice(0, 12)})`);
