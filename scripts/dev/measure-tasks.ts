/**
 * Measures tasks of a dataset that pins upstream sources (datasets/debian) for its README cards:
 * builds each task's case image from scratch (no layer cache, the sources from the cache), runs
 * `dist/ssebench dataset verify` on it (or reads the verdict a finished `dataset verify --output
 * OUT` left in OUT/tasks/<id>.json: of a --repeat N, the mean of the N), records build seconds,
 * image size and verify seconds in DIR/measurements.json, then writes the cards (`ssebench dataset
 * cards`). Needs the engine and the base images.
 *
 *   bun scripts/dev/measure-tasks.ts DIR [--verified OUT] TASK...
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../../src/errors.ts";
import { MEASUREMENTS, readData, readMeasurements, writeCards } from "../../src/dataset/cards.ts";

const USAGE = "usage: bun scripts/dev/measure-tasks.ts DIR [--verified OUT] TASK...";
const fail = (line: string, code = 1): never => {
  console.error(`measure-tasks: ${line}`);
  process.exit(code);
};

async function run(cmd: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The classic builder, as ssebench builds case images (FROM ${ARG} resolves to local images).
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, DOCKER_BUILDKIT: "0" } });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** The seconds of one verify in a passing verdict file: with `--repeat N`, the mean of the N. */
export function verdictSeconds(file: string, id: string): number {
  const verdict = readData(file, JSON.parse) as { ok?: boolean; seconds?: number; repetitions?: unknown };
  if (verdict.ok !== true || typeof verdict.seconds !== "number") throw new UserError(`${file}: ${id} did not verify`);
  const repetitions = Array.isArray(verdict.repetitions) ? verdict.repetitions.length : 1;
  return verdict.seconds / Math.max(1, repetitions);
}

async function verifySeconds(dir: string, id: string, verified: string | undefined): Promise<number> {
  if (verified) {
    const file = join(verified, "tasks", `${id}.json`);
    if (!existsSync(file)) fail(`${file}: missing (no verdict of ${id} in ${verified})`);
    return verdictSeconds(file, id);
  }
  const started = performance.now();
  const verify = await run(["./dist/ssebench", "dataset", "verify", "--dir", dir, id]);
  if (verify.code !== 0) fail(`${id}: dataset verify failed:\n${verify.stdout}${verify.stderr.slice(-2000)}`);
  return (performance.now() - started) / 1000;
}

async function measure(dir: string, ids: string[], verified: string | undefined): Promise<void> {
  const { stageUpstreamContext, sourcesCacheDir } = await import("../../src/run/layers/upstream-sources.ts");
  const registry = process.env.SSEBENCH_REGISTRY || "ghcr.io/42-b3yond-6ug/ssebench";
  const measured = readMeasurements(dir);
  for (const id of ids) {
    const staged = await stageUpstreamContext(join(dir, id), { cacheDir: sourcesCacheDir() }).catch((e: Error) => fail(`${id}: ${e.message}`));
    if (!staged) return fail(`${id}: no upstream/sources.yaml`);
    const tag = `ssebench-measure/${id}:latest`;
    const started = performance.now();
    const build = await run(["docker", "build", "--no-cache", "--force-rm", "--network", "none", "--build-arg", `SSEBENCH_REGISTRY=${registry}`, "-t", tag, staged.context]);
    const buildSeconds = (performance.now() - started) / 1000;
    staged.cleanup();
    if (build.code !== 0) fail(`${id}: docker build failed:\n${build.stdout.slice(-3000)}${build.stderr.slice(-2000)}`);
    const inspect = await run(["docker", "image", "inspect", "--format", "{{.Size}}", tag]);
    await run(["docker", "rmi", tag]);
    const seconds = await verifySeconds(dir, id, verified);
    const m = { build_seconds: Math.round(buildSeconds), image_mb: Math.round(Number(inspect.stdout.trim()) / 1e6), verify_seconds: Math.round(seconds), measured: new Date().toISOString().slice(0, 10) };
    measured[id] = m;
    console.log(`${id}: build ${m.build_seconds} s, image ${m.image_mb} MB, verify ${m.verify_seconds} s`);
  }
  const sorted = Object.fromEntries(Object.entries(measured).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(join(dir, MEASUREMENTS), `${JSON.stringify(sorted, null, 2)}\n`);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const verifiedAt = args.indexOf("--verified");
  const verified = verifiedAt >= 0 ? args[verifiedAt + 1] : undefined;
  if (verifiedAt >= 0 && (!verified || verified.startsWith("--"))) fail(`--verified needs a folder; ${USAGE}`, 2);
  const words = args.filter((_, i) => verifiedAt < 0 || (i !== verifiedAt && i !== verifiedAt + 1));
  const flag = words.find((a) => a.startsWith("--"));
  if (flag) fail(`unknown option ${flag}; ${USAGE}`, 2);
  const [dir, ...ids] = words;
  if (!dir || ids.length === 0) fail(`a dataset folder and task IDs; ${USAGE}`, 2);
  try {
    await measure(resolve(dir as string), ids, verified);
    console.log(writeCards(resolve(dir as string), dir as string, false));
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    fail(e.message);
  }
}
