/**
 * `ssebench dataset publish` (spec dataset-catalog §4.2, docs/registry.md): pushes each verified
 * task's case image to a registry as `<registry>/case/<dataset>/<id>:<version>-<rev7>` and
 * `:<version>`, writes its publication record to `<output>/published/<id>.json`, then merges this
 * run's records into `<dir>/images.lock.json` by the `lock` rules. `--unverified` builds the case
 * image from the task folder instead of requiring a verdict of `dataset verify`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { normaliseRegistry as normaliseBuildRegistry, DEFAULT_REGISTRY } from "../catalog/image-refs.ts";
import { lockProblems, mergeLock } from "../dataset/lock.ts";
import { describeCause, UserError, usageError } from "../errors.ts";
import { parseImagesLock, renderImagesLock, renderPublicationRecord } from "../formats/manifest/images-lock.ts";
import type { Manifest, PublicationRecord } from "../formats/manifest/manifest-types.ts";
import { LOCK_FILE, RECORDS_DIR } from "../formats/patterns.ts";
import { caseBaseImages, ensureCaseImage, localCaseTag } from "../run/layers/case-image.ts";
import type { Docker } from "../run/backends/docker.ts";
import { inspectImages, refComponent } from "../run/layers/layers.ts";
import type { Reporter } from "../run/reporter.ts";
import { lockMessages } from "../dataset/messages.ts";
import { registryMsg as m } from "./messages.ts";
import { RegistryPusher } from "../run/backends/registry-push.ts";

export interface PublishOptions {
  dir: string;
  tasks: string[];
  registry: string;
  output: string;
  revision?: string;
  unverified: boolean;
}

export interface PublishDeps {
  docker: Docker;
  reporter: Reporter;
  env: NodeJS.ProcessEnv;
  /** stdout / stderr lines */
  out: (line: string) => void;
  err: (line: string) => void;
}

interface Verdict {
  ok?: boolean;
  failures?: string[];
  /** each run's `image` is the case image it graded (run/verify/verify.ts) */
  runs?: Record<string, { image?: string | null }>;
}

function revisionOf(dir: string, given: string | undefined): string {
  if (given !== undefined && !/^[0-9a-f]{40}$/.test(given)) throw usageError(m.badRevisionFlag(given));
  let rev = given;
  if (rev === undefined) {
    const r = Bun.spawnSync(["git", "-C", dir, "rev-parse", "HEAD"], { stdout: "pipe", stderr: "ignore" });
    rev = r.exitCode === 0 ? r.stdout.toString().trim() : "";
  }
  if (!/^[0-9a-f]{40}$/.test(rev)) throw new UserError(m.badRevision());
  return rev;
}

/** The case image the verification graded, or the reason it cannot be published. */
function gradedImage(id: string, tasksDir: string): { image: string } | { why: string } {
  const file = join(tasksDir, `${id}.json`);
  if (!existsSync(file)) return { why: m.noVerdict(id, tasksDir) };
  let v: Verdict;
  try {
    v = JSON.parse(readFileSync(file, "utf8")) as Verdict;
  } catch (cause) {
    return { why: m.taskFailed(id, `${file}: ${describeCause(cause)}`) };
  }
  const isObject = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x);
  if (!isObject(v) || (v.runs !== undefined && (!isObject(v.runs) || !Object.values(v.runs).every(isObject)))) {
    return { why: m.taskFailed(id, m.badVerdict(file)) };
  }
  if (!v.ok) return { why: m.notVerified(id, v.failures?.[0] ?? "") };
  const images = new Set(Object.values(v.runs ?? {}).map((r) => r.image ?? null));
  const [only] = [...images];
  if (images.size !== 1 || !only) return { why: m.noGradedImage(id) };
  return { image: only };
}

async function publishTask(manifest: Manifest, id: string, opts: PublishOptions & { revision: string }, deps: PublishDeps, pusher: RegistryPusher): Promise<PublicationRecord> {
  const root = resolve(opts.dir);
  const buildRegistry = normaliseBuildRegistry(deps.env.SSEBENCH_REGISTRY?.trim() || DEFAULT_REGISTRY);
  const local = localCaseTag(buildRegistry, basename(root), id);
  let graded: string | undefined;
  if (opts.unverified) {
    const source = { folder: join(root, id), tag: local, pull: undefined };
    const known = await inspectImages(deps.docker, [local, ...caseBaseImages(source, buildRegistry)]);
    try {
      graded = (await ensureCaseImage(deps.docker, source, buildRegistry, deps.reporter, new AbortController().signal, known)).id;
    } catch (error) {
      if (error instanceof UserError) throw new UserError(m.buildFailed(id, error.message));
      throw error;
    }
  } else {
    const g = gradedImage(id, join(opts.output, "tasks"));
    if ("why" in g) throw new UserError(g.why);
    graded = g.image;
  }
  const info = await deps.docker.call(["image", "inspect", "--format", "{{.Id}}\t{{.Architecture}}", local]);
  if (info.code !== 0) throw new UserError(m.missingLocal(id, local));
  const [localId, arch] = info.stdout.trim().split("\t");
  if (localId !== graded) throw new UserError(m.notGraded(id, local));
  if (arch !== "amd64") throw new UserError(m.wrongArch(id, local, arch ?? ""));
  const image = `case/${refComponent(manifest.dataset)}/${refComponent(id)}`;
  const tags = [`${manifest.version}-${opts.revision.slice(0, 7)}`, manifest.version];
  const refs: string[] = [];
  for (const tag of tags) refs.push(await pusher.push(local, image, tag));
  const digests = refs.map((r) => r.slice(r.indexOf("@") + 1));
  if (new Set(digests).size !== 1) throw new UserError(m.differentDigests(id, tags, digests));
  const files = manifest.tasks.find((t) => t.id === id)?.files ?? {};
  const { filesDigest } = await import("../dataset/files-digest.ts");
  return { task: id, dataset: manifest.dataset, version: manifest.version, image, tags, digest: digests[0] as string, files_sha256: filesDigest(files), revision: opts.revision };
}

/** Exit status: 0 when every task was published and the lock written, 1 otherwise. */
export async function publishDataset(manifest: Manifest, opts: PublishOptions, deps: PublishDeps): Promise<number> {
  const pusher = new RegistryPusher(deps.docker, opts.registry);
  const revision = revisionOf(opts.dir, opts.revision);
  const known = manifest.tasks.map((t) => t.id);
  const unknown = opts.tasks.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw new UserError(m.unknownTasks(opts.dir, unknown));
  const tasksDir = join(opts.output, "tasks");
  let ids = opts.tasks;
  if (ids.length === 0) {
    ids = opts.unverified ? known : known.filter((id) => existsSync(join(tasksDir, `${id}.json`)));
    if (ids.length === 0) throw new UserError(m.noTaskResults(tasksDir));
  }
  const records: PublicationRecord[] = [];
  let failed = false;
  for (const id of ids) {
    try {
      const record = await publishTask(manifest, id, { ...opts, revision }, deps, pusher);
      const dir = join(opts.output, RECORDS_DIR);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${id}.json`), renderPublicationRecord(record));
      records.push(record);
      deps.out(m.published(`${pusher.registry}/${record.image}`, record.digest, record.tags));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      deps.err(error.message);
      failed = true;
    }
  }
  if (records.length > 0) {
    const lockPath = join(opts.dir, LOCK_FILE);
    const existing = existsSync(lockPath) ? await parseImagesLock(readFileSync(lockPath, "utf8"), lockPath) : undefined;
    const { lock } = mergeLock(manifest, existing, records, opts.dir);
    for (const p of lockProblems(lockPath, lock, manifest)) deps.err(p);
    writeFileSync(lockPath, renderImagesLock(lock));
    deps.out(lockMessages.wrote(lockPath, Object.keys(lock.images).length));
  }
  return failed ? 1 : 0;
}
