/** Every text of `dataset publish` and the registry pushes (docs/registry.md); tests assert them. The spec's wording (dataset-catalog §4.2) where it has one. */
import { pushMsg } from "../run/messages.ts";

const list = (names: readonly string[]) => names.join(", ");

export const registryMsg = {
  // the pushes (run/backends/registry-push.ts)
  ...pushMsg,

  // dataset publish
  invalidDataset: (dir: string) => `${dir} has invalid tasks; run \`ssebench dataset validate\`:`,
  unknownTasks: (dir: string, names: readonly string[]) => `no such task in ${dir}: ${list(names)}`,
  badRevision: () => "Give the commit that the dataset is at as a full commit hash with --revision",
  badRevisionFlag: (given: string) => `--revision ${JSON.stringify(given)} is not a full commit hash (40 lowercase hex digits)`,
  noTaskResults: (tasksDir: string) => `No task results in ${tasksDir}`,
  badVerdict: (file: string) => `${file}: not a verification result of \`dataset verify\` (an object whose runs are objects)`,
  noVerdict: (id: string, tasksDir: string) => `${id}: there is no verification result in ${tasksDir}`,
  notVerified: (id: string, first: string) => `${id}: it did not verify, so its image is not published: ${first}`,
  noGradedImage: (id: string) => `${id}: the verification did not record the case image that it graded`,
  missingLocal: (id: string, local: string) => `${id}: there is no local image ${local}`,
  notGraded: (id: string, local: string) => `${id}: ${local} is not the image that was graded, so it is not published`,
  wrongArch: (id: string, local: string, arch: string) => `${id}: ${local} is for ${arch}; the tasks are published for amd64`,
  differentDigests: (id: string, tags: readonly string[], digests: readonly string[]) =>
    `${id}: the tags ${list(tags)} were pushed as different images: [${digests.map((d) => `'${d}'`).join(", ")}]`,
  published: (image: string, digest: string, tags: readonly string[]) => `published ${image}@${digest} as ${list(tags)}`,
  taskFailed: (id: string, why: string) => `${id}: ${why}`,
  buildFailed: (id: string, why: string) => `${id}: the case image could not be built: ${why}`,
};
