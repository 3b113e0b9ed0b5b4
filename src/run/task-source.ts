/**
 * Finding the task a run names (spec §4.2 step 8): `--local DIR` reads DIR/<task>/sse/config.yaml;
 * otherwise the catalog (`--catalog`, SSEBENCH_CATALOG, or the dataset built into the binary) names
 * it, and a local folder whose files match the manifest is used to build its case image.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { describeCause, UserError } from "../errors.ts";
import type { ManifestTask, TaskMetadata } from "../formats/manifest/manifest-types.ts";
import { DATASET_FILE, DEFAULT_ARCH } from "../formats/patterns.ts";
import { type CaseSource, localCaseTag } from "./layers/case-image.ts";
import { cacheDir } from "./home.ts";
import { msg } from "./messages.ts";
import { cachedValidation } from "./layers/validation-cache.ts";

export interface ResolvedTask {
  id: string;
  metadata: TaskMetadata;
  arch: string[];
  case: CaseSource;
  warnings: string[];
  /** the dataset the task comes from: the catalog's manifest, or the --local folder and its dataset.yaml ("" when it has none) */
  dataset: { name: string; version: string };
}

/** A --local dataset: the folder's name and the version in its dataset.yaml. */
async function localDataset(root: string): Promise<{ name: string; version: string }> {
  const file = join(root, DATASET_FILE);
  if (!existsSync(file)) return { name: basename(root), version: "" };
  const { readYamlFile } = await import("../dataset/yaml-file.ts");
  const read = readYamlFile(file);
  const version = read.ok ? (read.data as { version?: unknown } | null)?.version : undefined;
  return { name: basename(root), version: typeof version === "string" ? version : "" };
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** Reads and validates a task folder's config (sse/config.yaml, or config.yaml); id must equal the folder. */
export async function loadTaskConfig(folder: string, id: string): Promise<TaskMetadata> {
  const candidates = [join(folder, "sse", "config.yaml"), join(folder, "config.yaml")];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new UserError(msg.taskInvalid(id, `${candidates[0]} is missing`));
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new UserError(`${file}: ${describeCause(cause)}`);
  }
  const config = await cachedValidation(cacheDir(process.env, "tasks"), `${id}.config`, `${file}\0${text}`, async () => {
    const { readYamlFile } = await import("../dataset/yaml-file.ts");
    const read = readYamlFile(file);
    if (!read.ok) throw new UserError(`${file}: ${read.cause}`);
    const { checkDocument } = await import("../formats/check.ts");
    const { formatProblem } = await import("../formats/schema/model-errors.ts");
    const { problemLine } = await import("../formats/parse-json-format.ts");
    const checked = checkDocument<TaskMetadata>("task", read.data, read.nonStringKeys);
    if (!checked.ok) throw new UserError(`${file}: ${problemLine(checked.problems.map(formatProblem))}`);
    return checked.value;
  });
  if (config.id !== id) throw new UserError(`${file}: id '${config.id}' differs from its folder name '${id}'`);
  return config;
}

export async function resolveLocalTask(dir: string, id: string, registry: string): Promise<ResolvedTask> {
  const root = resolve(dir);
  const folder = join(root, id);
  if (!isDir(root)) throw new UserError(existsSync(root) ? msg.localNotFolder(dir) : msg.localMissing(dir));
  if (!isDir(folder)) {
    const known = isDir(root) ? readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
    const lister = existsSync(join(root, "manifest.json")) ? `ssebench tasks list --catalog ${dir}` : `ls ${dir}`;
    throw new UserError(msg.taskMissing(id, root, known, lister));
  }
  const metadata = await loadTaskConfig(folder, id);
  return {
    id,
    metadata,
    arch: [...DEFAULT_ARCH],
    case: { folder, tag: localCaseTag(registry, basename(root), id), pull: undefined },
    warnings: [],
    dataset: await localDataset(root),
  };
}

/** The first candidate folder whose task files equal the manifest's (a task without files trusts any). */
async function matchingFolder(task: ManifestTask, candidates: string[], warnings: string[]): Promise<string | undefined> {
  for (const folder of candidates) {
    if (!isDir(folder) || !existsSync(join(folder, "Dockerfile"))) continue;
    if (!task.files) return folder;
    const { taskFilesMatch } = await import("./task-files.ts");
    if (await taskFilesMatch(folder, task.files)) return folder;
    warnings.push(`${folder} differs from task ${task.id} in the catalog, so it is not used`);
  }
  return undefined;
}

export async function resolveCatalogTask(
  opts: { catalog: string | undefined; env: NodeJS.ProcessEnv; home: string; build: boolean },
  id: string,
  registry: string,
): Promise<ResolvedTask> {
  const { openCatalog, findTask, resolveImage } = await import("../catalog/client.ts");
  const catalog = await openCatalog({ catalog: opts.catalog, env: opts.env });
  const task = findTask(catalog, id);
  const warnings = [...catalog.warnings];
  const dataset = catalog.manifest.dataset;
  const candidates = [
    ...(catalog.localDir ? [join(catalog.localDir, id)] : []),
    join(opts.home, "datasets", dataset, id),
  ];
  const folder = await matchingFolder(task, candidates, warnings);
  const pull = resolveImage(catalog, task, registry);
  if (opts.build && !folder) {
    throw new UserError(
      `Cannot build the case image of task ${id}: there is no local copy of it. Run from an ssebench checkout, or build from a dataset with --local DIR.`,
    );
  }
  return {
    id,
    metadata: task.metadata,
    arch: task.arch.length > 0 ? [...task.arch] : [...DEFAULT_ARCH],
    // A folder-built image takes the catalog's tag name, so `docker images` shows what it is.
    case: { folder, tag: pull.tagRef, pull: folder ? undefined : pull },
    warnings,
    dataset: { name: dataset, version: catalog.manifest.version },
  };
}
