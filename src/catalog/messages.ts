/** Every text the catalog (service and client) shows users; tests assert these exact strings. */
import { didYouMean } from "../output/close-names.ts";
export const messages = {
  cannotReadCatalog: (loc: string, cause: string) => `Cannot read the catalog at ${loc}: ${cause}`,
  taskNotInCatalog: (id: string, loc: string, known: readonly string[] = []) => {
    const close = didYouMean(id, known);
    return `Task ${id} is not in the catalog at ${loc} (${close ? `did you mean ${close}? ` : ""}ssebench tasks list lists its tasks)`;
  },
  cannotReadLock: (loc: string, cause: string) => `Cannot read the images lock at ${loc}: ${cause}`,
  lockForOtherDataset: (loc: string, lockDs: string, lockVer: string, ds: string, ver: string) =>
    `${loc} is for ${lockDs} ${lockVer}, not ${ds} ${ver}; pulling the case images by tag instead`,
  staleLockEntry: (id: string) =>
    `The images lock pins task ${id} to an image built from other files than the manifest lists; pulling the image by tag instead`,
  httpStatus: (status: number, statusText: string) => `HTTP ${status}${statusText ? ` ${statusText}` : ""}`,
  timedOut: (seconds: number) => `no answer within ${seconds} s`,
  refused: "connection refused (is the catalog service running?)",
  unknownLanguage: (given: string, known: readonly string[]) => `ssebench tasks list: --language must be one of ${known.join(", ")}, not '${given}'`,
  noTaskMatches: (total: number, loc: string) => `No task of the ${total} in the catalog at ${loc} matches the filters`,
  resolvesOutside: (real: string, folder: string) => `it resolves to ${real}, outside the dataset folder ${folder}`,
  notRegularFile: "not a regular file",
  changedWhileRead: "it changed while it was opened",
  noFolder: (folder: string) => `the dataset folder ${folder} cannot be resolved`,
  reportNotInCatalog: (path: string) => `(its text is not in this catalog: the file sse/${path} of the task folder)`,
  // service
  taskNotFound: (id: string) => `task '${id}' not found\n`,
  pageNotFound: "404 page not found\n",
  methodNotAllowed: "Method Not Allowed\n",
  tooManyHosts: "too many Host headers",
  badPort: (where: string, value: string) => `${where} must be a port number from 0 to 65535, not '${value}'`,
  cannotListen: (host: string, port: number, cause: string) => `Cannot listen on ${host}:${port}: ${cause}`,
  serving: (n: number, version: string, source: string, url: string, pinned: number) =>
    `serving ${n} tasks of ${version} from ${source} on ${url} (${pinned} of ${n} case images named by digest, the others by the tag ${version})`,
  stopping: (signal: string) => `${signal}: finishing requests in flight, then stopping`,
} as const;
