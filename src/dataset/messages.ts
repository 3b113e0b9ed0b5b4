/**
 * Every text the dataset tools print, as data (spec §1–§4 wording). Tests assert these strings.
 */
import { REGISTRY_PREFIX } from "../formats/patterns.ts";

export const dockerfileMessages = {
  noFrom: "no FROM instruction",
  cannotParseFrom: (lineRepr: string) => `cannot parse ${lineRepr}`,
  cannotParseCopy: (restRepr: string) => `cannot parse COPY ${restRepr}`,
};

export const datasetMessages = {
  notADirectory: "not a directory",
  datasetFileMissing: "dataset.yaml: missing",
  datasetFileUnreadable: (cause: string) => `dataset.yaml: cannot read: ${cause}`,
  datasetFileProblem: (problem: string) => `dataset.yaml: ${problem}`,
  noTaskFolders: "no task folders",
  caseCollision: (first: string, other: string, lowered: string) =>
    `tasks ${first} and ${other} would share the image name case/.../${lowered}`,
  /** ours: the reference crashes on a dataset folder whose name is not a valid dataset name */
  badDatasetName: (nameRepr: string, pattern: string) =>
    `the folder name ${nameRepr} is not a valid dataset name: it should match pattern '${pattern}'`,
};

export const taskMessages = {
  configMissing: "sse/config.yaml: missing",
  configUnreadable: (cause: string) => `sse/config.yaml: cannot read: ${cause}`,
  configProblem: (problem: string) => `sse/config.yaml: ${problem}`,
  idNotFolder: (idRepr: string) => `sse/config.yaml: id: ${idRepr} must equal the folder name`,
  dockerfileMissing: "Dockerfile: missing",
  dockerfileProblem: (problem: string) => `Dockerfile: ${problem}`,
  lastFromNotRegistry: (base: string) => `Dockerfile: the last FROM must be ${REGISTRY_PREFIX}<base image>, not ${base}`,
  registryArgMissing: "Dockerfile: FROM uses SSEBENCH_REGISTRY, but no ARG SSEBENCH_REGISTRY precedes it",
  baseNotPinned: (base: string) => `Dockerfile: the base image must have a version tag or a digest, not ${base}`,
  copiesMissing: (source: string) => `Dockerfile: copies ${source}, which does not exist`,
  /** ours: Docker refuses sources outside the build context; say so before it does */
  copiesOutside: (source: string) => `Dockerfile: copies ${source}, which is outside the task folder`,
  configNotCopied: "Dockerfile: must copy sse/config.yaml to /ssebench/config.yaml",
  pathOutside: (name: string, value: string) => `sse/config.yaml: ${name}: ${value} is outside /ssebench`,
  pathNotCopied: (name: string, imagePath: string) =>
    `sse/config.yaml: ${name}: the Dockerfile puts no file of the task folder at ${imagePath}`,
  /** ours: a dataset must not pull host files into an image */
  symlinkOutside: (path: string, target: string) => `${path}: symlink to ${target}, outside the task folder`,
  symlinkDangling: (path: string, target: string) => `${path}: symlink to ${target}, which does not exist`,
  folderIsSymlink: (target: string) => `the task folder is a symlink to ${target}; copy the task into the dataset instead`,
  unreadableFile: (path: string, cause: string) => `${path}: cannot read: ${cause}`,
  /** ours: the pinned upstream inputs (upstream/sources.yaml, docs/dataset-debian.md) */
  sourcesUnreadable: (cause: string) => `upstream/sources.yaml: cannot read: ${cause}`,
  sourcesProblem: (problem: string) => `upstream/sources.yaml: ${problem}`,
  sourcesShadowed: (i: number, name: string) =>
    `upstream/sources.yaml: files[${i}].url: the task folder has its own upstream/${name}, which the fetched file would replace`,
  sourcesNotCopied: "Dockerfile: copies nothing of upstream/, so the files upstream/sources.yaml pins never reach the build",
};

export const reportMessages = {
  valid: (dir: string, n: number) => `${dir}: ${n} tasks are valid`,
  /** ours: the reference also prints `<dir>: 0 of 0 tasks are invalid` for a path that is no folder */
  dirMissing: (dir: string) => `${dir}: does not exist`,
  notADatasetFolder: (dir: string) =>
    `${dir}: not a dataset; give a dataset folder (one with dataset.yaml and a folder per task) or an item dataset FILE.yaml (kind: Dataset)`,
  invalid: (dir: string, k: number, n: number) => `${dir}: ${k} of ${n} tasks are invalid`,
  noManifest: (dir: string) => `${dir}: not a valid dataset, so no manifest was generated`,
  noLock: (dir: string) => `${dir}: not a valid dataset, so no lock was generated`,
  noCheckout: (cwd: string) =>
    `no DIR given and no ssebench checkout above ${cwd} (looked for datasets/demo/dataset.yaml); give the dataset folder as DIR`,
};

export const manifestMessages = {
  wrote: (target: string, n: number) => `wrote ${target} with ${n} tasks`,
  checkNeedsFile: "--check needs an output file",
  upToDate: (target: string) => `${target} is up to date`,
  outOfDate: (target: string) => `${target} is out of date; run \`ssebench dataset manifest\` to update it`,
  cannotWrite: (target: string, cause: string) => `cannot write ${target}: ${cause}`,
  cannotRead: (target: string, cause: string) => `cannot read ${target}: ${cause}`,
};

export const schemaMessages = {
  wrote: (path: string) => `wrote ${path}`,
  outOfDate: (dir: string, names: readonly string[]) =>
    `${dir}: out of date: ${names.join(", ")}; run \`ssebench dataset schema\` to update`,
  ignoreNeedsCheck: "--ignore-descriptions only goes with --check",
};

export const lockMessages = {
  wrote: (target: string, n: number) => `wrote ${target} with ${n} images`,
  invalidLock: (path: string, problem: string) => `${path} is not a valid images lock: ${problem}`,
  invalidRecord: (path: string, problem: string) => `${path} is not a valid publication record: ${problem}`,
  recordOtherVersion: (task: string, ds: string, ver: string, wantDs: string, wantVer: string) =>
    `The record of ${task} is for ${ds} ${ver}, not ${wantDs} ${wantVer}`,
  recordOtherFiles: (task: string, dir: string) => `The record of ${task} is for other task files than the ones in ${dir}`,
  lockMissing: (path: string) => `${path} is missing; run \`ssebench dataset lock\``,
  lockOtherVersion: (path: string, ds: string, ver: string, wantDs: string, wantVer: string) =>
    `${path} is for ${ds} ${ver}, not ${wantDs} ${wantVer}; run \`ssebench dataset lock\``,
  pinsUnknown: (path: string, id: string) => `${path} pins ${id}, which is not a task of the dataset`,
  consistent: (path: string) => `${path} is consistent with the dataset`,
  recordsNotADirectory: (path: string) => `${path}: not a directory of publication records`,
};

/** `dataset cards` and `dataset check-sources` (datasets whose tasks pin upstream sources). */
export const cardsMessages = {
  notADatasetFolder: (dir: string) => `${dir}: not a dataset folder`,
  fileProblem: (file: string, problem: string) => `${file}: ${problem}`,
  notAMapping: (file: string) => `${file}: must be a mapping`,
  sourcesMissing: (file: string) => `${file}: missing (every task of this dataset pins its sources there)`,
  notAString: (file: string, key: string) => `${file}: ${key}: must be a non-empty string`,
  notADate: (file: string, key: string) => `${file}: ${key}: must be a date, YYYY-MM-DD`,
  badCve: (file: string) => `${file}: cve: must look like CVE-2024-12345`,
  badCwe: (file: string) => `${file}: cwe: must look like CWE-787`,
  badTests: (file: string) => `${file}: tests: must be upstream or here`,
  outOfDate: (readme: string, dir: string) => `${readme} is not what the configs give; run ssebench dataset cards ${dir}`,
  upToDate: (readme: string) => `${readme}: the cards match the configs`,
  wrote: (readme: string, n: number) => `wrote ${readme} with ${n} cards`,
  sourcesPresent: (dir: string, files: number, tasks: number) => `${dir}: the archive has all ${files} pinned files of ${tasks} tasks`,
};
