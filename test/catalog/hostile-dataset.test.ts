/**
 * A hostile dataset folder served and shown (the compiled binary, real files and links): every
 * file the catalog reads must resolve inside the dataset folder. A task's `sse/reports` linked to
 * /proc/self (with no `files` digests to stop it) must not put the server's environment on the
 * task page or in `tasks show`, nor a task folder linked out of the dataset its files; a link
 * that stays inside the folder is followed; an `images.lock.json` beside the manifest that links
 * out is refused as unreadable.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../../src/formats/manifest/manifest-types.ts";
import { hasNoStackTrace, repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { startServer } from "./server-process.ts";

const tmp = tempDir("ssebench-catalog-hostile-");
afterAll(tmp.cleanup);
const SECRET = "sk-hostile-provider-key-0123456789";
const OUTSIDE_TEXT = "text of a file outside the dataset folder";
const INSIDE_TEXT = "a report shared by two tasks, inside the dataset folder";

/** The demo manifest with three tasks' reports made hostile or shared; `files` null, so no digest stops a read. */
function hostileDataset(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(repoRoot, "datasets", "demo", "manifest.json"), "utf8")) as Manifest;
  for (const task of manifest.tasks) task.files = null;
  const [rust, c, go] = ["fixedbuf-extend-overflow", "htmlesc-quote-overflow", "staticfs-encoded-traversal"].map((id) => manifest.tasks.find((t) => t.id === id));
  if (!rust || !c || !go) throw new Error("the demo's tasks changed");
  // sse/reports is a link to the server's own /proc entry: environ is its environment.
  c.metadata.task_description.crash_report = ["reports/environ"];
  mkdirSync(join(dir, c.id, "sse"), { recursive: true });
  symlinkSync("/proc/self", join(dir, c.id, "sse", "reports"));
  // The task folder itself is a link to a folder outside the dataset.
  const outside = join(tmp.path, "outside", rust.id);
  mkdirSync(join(outside, "sse", "reports"), { recursive: true });
  writeFileSync(join(outside, "sse", "reports", "issue.md"), OUTSIDE_TEXT);
  symlinkSync(outside, join(dir, rust.id));
  // A link that stays inside the dataset folder is fine.
  mkdirSync(join(dir, "shared"), { recursive: true });
  writeFileSync(join(dir, "shared", "issue.md"), INSIDE_TEXT);
  mkdirSync(join(dir, go.id, "sse"), { recursive: true });
  symlinkSync("../../shared", join(dir, go.id, "sse", "reports"));
  go.metadata.task_description.crash_report = ["reports/issue.md"];
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
}

const dataset = join(tmp.path, "hostile");
hostileDataset(dataset);

describe("a hostile dataset folder", () => {
  test("catalog serve: a task page shows no file from outside the dataset folder, a link inside it is followed", async () => {
    const server = await startServer(["--manifest", dataset], { SSEBENCH_TEST_PROVIDER_KEY: SECRET });
    try {
      const page = async (id: string) => (await fetch(`${server.url}/html/tasks/${id}`)).text();
      const environ = await page("htmlesc-quote-overflow");
      expect(environ).not.toContain(SECRET);
      expect(environ).not.toContain("SSEBENCH_TEST_PROVIDER_KEY");
      expect(environ).toContain("reports/environ");
      expect(await page("fixedbuf-extend-overflow")).not.toContain(OUTSIDE_TEXT);
      expect(await page("staticfs-encoded-traversal")).toContain(INSIDE_TEXT);
    } finally {
      await server.stop("SIGTERM");
    }
  });

  test("tasks show: the same rule", async () => {
    const env = { SSEBENCH_TEST_PROVIDER_KEY: SECRET };
    const environ = await ssebench(["tasks", "show", "htmlesc-quote-overflow", "--catalog", dataset], { env });
    expect(environ.exitCode).toBe(0);
    expect(environ.stdout).not.toContain(SECRET);
    expect(environ.stdout).toContain("Crash report reports/environ: (its text is not in this catalog: the file sse/reports/environ of the task folder)");
    const outside = await ssebench(["tasks", "show", "fixedbuf-extend-overflow", "--catalog", dataset], { env });
    expect(outside.stdout).not.toContain(OUTSIDE_TEXT);
    const inside = await ssebench(["tasks", "show", "staticfs-encoded-traversal", "--catalog", dataset], { env });
    expect(inside.stdout).toContain(INSIDE_TEXT);
  });

  test("an images.lock.json beside the manifest that links out of the folder is not read: one line, exit 1", async () => {
    const dir = join(tmp.path, "lock-out");
    cpSync(join(repoRoot, "datasets", "demo", "manifest.json"), join(dir, "manifest.json"), { recursive: true });
    writeFileSync(join(tmp.path, "outside-lock.json"), readFileSync(join(repoRoot, "datasets", "demo", "images.lock.json")));
    symlinkSync(join(tmp.path, "outside-lock.json"), join(dir, "images.lock.json"));
    const lock = join(dir, "images.lock.json");
    const expected = `Cannot read the images lock at ${lock}: it resolves to ${join(tmp.path, "outside-lock.json")}, outside the dataset folder ${dir}\n`;
    const listed = await ssebench(["tasks", "list", "--catalog", dir]);
    expect([listed.exitCode, listed.stderr]).toEqual([1, expected]);
    const served = await ssebench(["catalog", "serve", "--manifest", dir, "--port", "0", "--host", "127.0.0.1"]);
    expect([served.exitCode, served.stderr]).toEqual([1, expected]);
    expect(hasNoStackTrace(served.stderr)).toBe(true);
  });
});
