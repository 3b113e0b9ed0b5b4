import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "new",
    description: "Start a task from a Debian source package with one patch of its series left out (fetches and pins the sources, writes the Dockerfile, diffs, build.sh and configs with TODOs)",
  },
  args: {
    debian: { type: "string", description: "The Debian source package and version, as in the archive", valueHint: "SOURCE=VERSION" },
    patch: { type: "string", description: "The debian/patches/ file that fixes the vulnerability (left out of the tree)", valueHint: "NAME" },
    cve: { type: "string", description: "The CVE (default: the one the patch's name holds)", valueHint: "CVE" },
    id: { type: "string", description: "The task id and folder name (default: SOURCE-cve-…)", valueHint: "ID" },
    dir: { type: "string", description: "The dataset folder (default: datasets/debian)", valueHint: "DIR" },
  },
  async run({ args }) {
    const { findHome } = await import("../../run/home.ts");
    const { sourcesCacheDir } = await import("../../run/layers/upstream-sources.ts");
    const { newCommand } = await import("../../dataset/new/new-command.ts");
    return newCommand(args, { root: findHome().root, cacheDir: sourcesCacheDir(), say: (line) => process.stdout.write(`${line}\n`) });
  },
});
