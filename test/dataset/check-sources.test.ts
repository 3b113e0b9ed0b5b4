/**
 * `ssebench dataset check-sources`: bad input is one line, exit 1, and no request to the archive (a
 * malformed sources.yaml is refused before its files are asked for); against a real HTTP server on
 * loopback standing in for the archive, a gone file is named and a present one is not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkSources } from "../../src/dataset/check-sources.ts";
import { cardsMessages } from "../../src/dataset/messages.ts";
import { msg } from "../../src/run/messages.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-bad-pins-");
afterAll(() => scratch.cleanup());
const check = (dir: string) => ssebench(["dataset", "check-sources", dir]);
const TASK = "expat-cve-2024-45490";

describe("dataset check-sources", () => {
  test("a folder that is not there is one line", async () => {
    const missing = join(scratch.path, "none");
    const r = await check(missing);
    expect([r.exitCode, r.stderr]).toEqual([1, `${missing}: not a dataset folder\n`]);
  });

  test("a sources.yaml with a bad hash names the file and key", async () => {
    const task = join(scratch.path, "ds", TASK);
    cpSync(join(repoRoot, "datasets", "debian", TASK), task, { recursive: true });
    const file = join(task, "upstream", "sources.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/sha256: [0-9a-f]{4}/, "sha256: zzzz"));
    const r = await check(join(scratch.path, "ds"));
    expect([r.exitCode, r.stderr]).toEqual([1, `${file}: files[0].sha256: must be 64 lowercase hex digits\n`]);
  });

  test("asks for every pinned file with HEAD: a 404 is named with the package and version, the rest pass", async () => {
    const asked: string[] = [];
    const gone = new Set<string>();
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        asked.push(`${req.method} ${new URL(req.url).pathname}`);
        return new Response(null, { status: gone.has(new URL(req.url).pathname) ? 404 : 200 });
      },
    });
    try {
      const dir = join(repoRoot, "datasets", "debian");
      // The archive's URLs, sent to the server on loopback instead.
      const local = (url: string, init: { method: "HEAD"; signal: AbortSignal }) => fetch(`http://127.0.0.1:${server.port}${new URL(url).pathname}`, init);
      const lines: string[] = [];
      const all = await checkSources(dir, (l) => lines.push(l), local);
      expect(all.problems).toBe(0);
      expect(lines).toEqual([]);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((a) => a.startsWith("HEAD /"))).toBe(true);
      const tasks = readdirSync(dir).filter((t) => existsSync(join(dir, t, "upstream", "sources.yaml"))).length;
      expect(all.summary).toBe(cardsMessages.sourcesPresent(dir, asked.length, tasks));
      const file = join(dir, TASK, "upstream", "sources.yaml");
      const pinned = readFileSync(file, "utf8");
      const url = /url: (\S+)/.exec(pinned)![1]!;
      gone.add(new URL(url).pathname);
      const again = await checkSources(dir, (l) => lines.push(l), local);
      expect(again.problems).toBe(1);
      expect(lines).toEqual([msg.sourceGone(file, "expat", "2.5.0-1+deb12u2", url)]);
    } finally {
      server.stop(true);
    }
  });
});
