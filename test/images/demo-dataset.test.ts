/**
 * The demo dataset's task folders, without Docker: the reference patch and the hidden tests apply
 * to the vulnerable source (alone and together), the scripts are executable, and every base image
 * the manifest names is one images/base-images builds. scripts/dev/check-demo-tasks.sh runs them on
 * the engine.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, runBinary, tempDir } from "../helpers/cli.ts";

const dataset = join(repoRoot, "datasets/demo");
const manifest = JSON.parse(readFileSync(join(dataset, "manifest.json"), "utf8")) as {
  tasks: { id: string; language: string; base: string; metadata: { scripts: Record<string, string> } }[];
};
const work = tempDir("ssebench-demo-");
afterAll(() => work.cleanup());

async function applies(task: string, diffs: string[]): Promise<string> {
  const tree = join(work.path, `${task}-${diffs.length}-${Math.random().toString(36).slice(2)}`);
  cpSync(join(dataset, task, "src"), tree, { recursive: true });
  let out = "";
  for (const diff of diffs) {
    const r = await runBinary("git", ["apply", "--verbose", join(dataset, task, "sse/diffs", diff)], { cwd: tree });
    if (r.exitCode !== 0) return `${diff}: ${r.stderr.trim()}`;
    out += r.stderr;
  }
  return out.includes("Applied patch") ? "applied" : out;
}

describe("datasets/demo", () => {
  test("has a C, a Go and a Rust task, one folder each", () => {
    const folders = readdirSync(dataset, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(manifest.tasks.map((t) => t.id)).toEqual(folders.sort());
    expect(manifest.tasks.map((t) => t.language).sort()).toEqual(["c", "go", "rust"]);
  });

  for (const task of manifest.tasks) {
    test(`${task.id}: reference patch and hidden tests apply, alone and together`, async () => {
      expect(await applies(task.id, ["patch.diff"])).toBe("applied");
      expect(await applies(task.id, ["test.diff"])).toBe("applied");
      expect(await applies(task.id, ["patch.diff", "test.diff"])).toBe("applied");
    });

    test(`${task.id}: scripts are executable and its base image is one build.sh makes`, () => {
      for (const script of Object.values(task.metadata.scripts)) {
        const file = join(dataset, task.id, script.replace(/^scripts\//, "sse/"));
        expect(statSync(file).mode & 0o111).toBe(0o111);
      }
      const version = readFileSync(join(repoRoot, "images/base-images/VERSION"), "utf8").trim();
      expect(task.base).toBe(`base-generic-${task.language}:${version}`);
      expect(statSync(join(repoRoot, `images/base-images/generic-${task.language}/Dockerfile`)).isFile()).toBe(true);
    });
  }
});
