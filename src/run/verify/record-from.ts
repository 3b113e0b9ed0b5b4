/**
 * `dataset verify --record-from OUT`: records the passing verdicts a finished `dataset verify
 * --output OUT` left (OUT/tasks/<id>.json) without verifying again, when they graded exactly what
 * the checkout has now. A verdict carries the key it was verified under (verify.ts): it must be
 * today's key. A verdict written before records existed has none; then the case image it graded
 * must still be on the engine and built from the task's current files and current base images
 * (its inputs label), as `ssebench run` checks before reusing an image.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REGISTRY, normaliseRegistry } from "../../catalog/image-refs.ts";
import type { Docker } from "../backends/docker.ts";
import { baseImages, caseInputs } from "../layers/case-image.ts";
import { inspectImages } from "../layers/layers.ts";
import { msg } from "../messages.ts";
import { keyChanges, type RecordKey } from "./record-key.ts";
import type { TaskVerdict } from "./verify.ts";

export type FromOutcome = { ok: true; verdict: TaskVerdict } | { ok: false; line: string };

/** Why a verdict without a key may not be recorded (undefined: its case image is the current one). */
async function imageProblem(docker: Docker, verdict: TaskVerdict, folder: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const images = new Set(["reference", "dummy"].map((agent) => verdict.runs[agent]?.image));
  const [image] = images;
  if (images.size !== 1 || typeof image !== "string") return "its reference and dummy runs did not grade one case image";
  const registry = normaliseRegistry(env.SSEBENCH_REGISTRY?.trim() || DEFAULT_REGISTRY);
  const refs = baseImages(readFileSync(join(folder, "Dockerfile"), "utf8"), registry);
  const known = await inspectImages(docker, [image, ...refs]);
  const graded = known.get(image);
  if (!graded) return `the case image it graded (${image.slice(0, 19)}) is no longer on this engine`;
  const bases = new Map();
  for (const ref of refs) {
    const info = known.get(ref);
    if (!info) return `its base image ${ref} is not on this engine`;
    bases.set(ref, info);
  }
  if (graded.inputs !== caseInputs(folder, registry, bases)) return "the case image it graded was built from other files or base images";
  return undefined;
}

/** The verdict of `id` in `out` if it may be recorded under `current`, else the one line why not. */
export async function verdictToRecord(out: string, id: string, folder: string, current: RecordKey, docker: Docker, env: NodeJS.ProcessEnv): Promise<FromOutcome> {
  const file = join(out, "tasks", `${id}.json`);
  if (!existsSync(file)) return { ok: false, line: msg.recordNoVerdict(id, out) };
  let verdict: TaskVerdict;
  try {
    verdict = JSON.parse(readFileSync(file, "utf8")) as TaskVerdict;
  } catch {
    return { ok: false, line: msg.recordNoVerdict(id, out) };
  }
  if (verdict.ok !== true || (verdict.disagreements?.length ?? 0) > 0 || !Array.isArray(verdict.repetitions)) return { ok: false, line: msg.recordNotPassing(id, out) };
  if (verdict.key) {
    const changed = keyChanges(verdict.key, current);
    return changed.length > 0 ? { ok: false, line: msg.recordOtherInputs(id, out, changed) } : { ok: true, verdict };
  }
  const problem = await imageProblem(docker, verdict, folder, env);
  return problem ? { ok: false, line: msg.recordOtherImage(id, out, problem) } : { ok: true, verdict };
}
