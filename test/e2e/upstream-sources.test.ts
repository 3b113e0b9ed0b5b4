/**
 * A case image whose task pins upstream sources (upstream/sources.yaml, as datasets/debian): on a
 * real engine, with --network none builds, the product's ensureCaseImage fetches the pinned file
 * from a real HTTP server on the host, checks it, and the image has it; an unchanged task is
 * reused with no download; a pin that left the archive fails with the one line that says so.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureCaseImage } from "../../src/run/layers/case-image.ts";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { inspectImages } from "../../src/run/layers/layers.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { tempDir } from "../helpers/cli.ts";
import { docker, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(600_000);
const REGISTRY = "ghcr.io/42-b3yond-6ug/ssebench";
const BASE = `${REGISTRY}/base-generic-c:1.0.0`;
const tag = `ssebench-e2e/upstream-sources:${process.pid}`;
const body = `pinned upstream bytes ${process.pid}\n`;
const tmp = tempDir("ssebench-e2e-upstream-");
let hits: string[] = [];
let server: ReturnType<typeof Bun.serve> | undefined;

function taskFolder(name: string, path: string, sha256: string): string {
  const folder = join(tmp.path, name);
  mkdirSync(join(folder, "upstream"), { recursive: true });
  writeFileSync(
    join(folder, "Dockerfile"),
    `ARG SSEBENCH_REGISTRY=${REGISTRY}\nFROM \${SSEBENCH_REGISTRY}/base-generic-c:1.0.0\nCOPY upstream /tmp/upstream\nRUN test -f /tmp/upstream/pkg_1.0.orig.tar.gz && cp /tmp/upstream/pkg_1.0.orig.tar.gz /pinned.txt\n`,
  );
  writeFileSync(
    join(folder, "upstream", "sources.yaml"),
    `package: pkg\nversion: 1.0-1\nfiles:\n- url: http://127.0.0.1:${server!.port}${path}\n  sha256: ${sha256}\n`,
  );
  return folder;
}

beforeAll(() => {
  if (!E2E) return;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      return path === "/pool/pkg_1.0.orig.tar.gz" ? new Response(body) : new Response("gone", { status: 404 });
    },
  });
});
afterAll(() => {
  server?.stop(true);
  if (E2E) docker(["rmi", "--force", tag]);
  tmp.cleanup();
});

describe.skipIf(!E2E)(`case images with pinned upstream sources on a real engine${SKIP_REASON}`, () => {
  test("fetched on the host into the build context, then reused with no download", async () => {
    const folder = taskFolder("task", "/pool/pkg_1.0.orig.tar.gz", createHash("sha256").update(body).digest("hex"));
    const cli = new DockerCli();
    const source = { folder, tag, pull: undefined };
    const env = process.env.SSEBENCH_SOURCES_CACHE;
    process.env.SSEBENCH_SOURCES_CACHE = join(tmp.path, "cache");
    try {
      const first = await ensureCaseImage(cli, source, REGISTRY, memoryReporter(), new AbortController().signal, await inspectImages(cli, [BASE, tag]));
      expect(first.built).toBe(true);
      expect(hits).toEqual(["/pool/pkg_1.0.orig.tar.gz"]);
      expect(docker(["run", "--rm", "--network", "none", first.id, "cat", "/pinned.txt"])).toBe(body.trim());

      hits = [];
      const again = await ensureCaseImage(cli, source, REGISTRY, memoryReporter(), new AbortController().signal, await inspectImages(cli, [BASE, tag]));
      expect(again).toEqual({ id: first.id, built: false, tag });
      expect(hits).toEqual([]);

      const gone = taskFolder("gone", "/pool/pkg_0.9.orig.tar.gz", "f".repeat(64));
      const failed = await ensureCaseImage(cli, { folder: gone, tag, pull: undefined }, REGISTRY, memoryReporter(), new AbortController().signal, await inspectImages(cli, [BASE, tag])).catch((e: Error) => e);
      expect((failed as Error).message).toBe(
        `${join(gone, "upstream", "sources.yaml")}: http://127.0.0.1:${server!.port}/pool/pkg_0.9.orig.tar.gz is no longer in the archive (HTTP 404): pkg 1.0-1 has left it; pin a version the archive has`,
      );
    } finally {
      if (env === undefined) delete process.env.SSEBENCH_SOURCES_CACHE;
      else process.env.SSEBENCH_SOURCES_CACHE = env;
    }
  });
});
