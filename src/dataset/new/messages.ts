/** What `ssebench dataset new` prints, as data (tests assert these strings). */
export const newMessages = {
  usage: "usage: ssebench dataset new --debian SOURCE=VERSION --patch NAME [--cve CVE] [--id ID] [--dir DIR]",
  badSourceVersion: (arg: string) => `--debian ${arg}: must be SOURCE=VERSION, e.g. libgd2=2.3.3-9+deb12u1`,
  badCve: (cve: string) => `--cve ${cve}: must look like CVE-2024-45490`,
  badId: (id: string) => `--id ${id}: must be lowercase letters, digits, '.', '_' and '-', starting with a letter or digit`,
  exists: (folder: string) => `${folder}: already exists; choose another --id or remove it`,
  noDataset: (dir: string) => `${dir}: not a dataset folder (no dataset.yaml)`,
  notInArchive: (source: string, version: string, tried: readonly string[]) => `${source} ${version} is not in the archive (no ${tried.join(" nor ")})`,
  downloadFailed: (url: string, why: string) => `cannot download ${url}: ${why}`,
  dscWithoutFiles: (url: string) => `${url}: lists no files (no Checksums-Sha256)`,
  fileMissing: (url: string, dsc: string) => `${url}: not in the archive, though ${dsc} lists it`,
  fileMismatch: (url: string, actual: string, expected: string) => `${url} has sha256 ${actual}, but its .dsc says ${expected}`,
  cacheUnwritable: (dir: string, why: string) => `Cannot write the sources cache ${dir}: ${why} (set SSEBENCH_SOURCES_CACHE to a writable folder)`,
  unsupportedFormat: (url: string, format: string) => `${url}: source format ${format}; dataset new needs 3.0 (quilt), whose patches it can leave one out of`,
  untarFailed: (file: string, why: string) => `cannot unpack ${file}: ${why}`,
  patchNotInSeries: (patch: string, source: string, version: string, series: readonly string[]) =>
    `${patch} is not in the patch series of ${source} ${version}${series.length > 0 ? ` (it has: ${series.join(", ")})` : " (it has no patches)"}`,
  seriesDoesNotApply: (name: string, patch: string, why: string) => `the series' ${name} does not apply without ${patch}: ${why}`,
  fixDoesNotApply: (patch: string, why: string) => `${patch} does not apply to the tree without it: ${why}`,
  gitFailed: (step: string, why: string) => `git ${step} failed: ${why}`,
  toolMissing: (tool: string) => `${tool} is not installed; dataset new needs tar, patch and git`,
  wrote: (folder: string, files: readonly string[]) => `wrote ${folder}: ${files.join(", ")}`,
};
