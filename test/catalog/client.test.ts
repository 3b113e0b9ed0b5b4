import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCatalogApp } from "../../src/catalog/app.ts";
import { findTask, lockUrlBeside, manifestUrl, openCatalog, resolveImage } from "../../src/catalog/client.ts";
import { UserError } from "../../src/errors.ts";
import { tempDir } from "../helpers/cli.ts";
import { closedPort, demoLock, demoManifest, digestOf, writeCatalogFiles } from "./fixtures.ts";

const REG = "reg.example";
const tmp = tempDir("ssebench-catalog-client-");
const withLock = `${tmp.path}/with-lock`;
const noLock = `${tmp.path}/no-lock`;
let server: ReturnType<typeof Bun.serve>;
let lockless: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  await writeCatalogFiles(withLock);
  await writeCatalogFiles(noLock, { lock: null });
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createCatalogApp({ manifest: demoManifest(), lock: demoLock(), registry: "x" }).fetch });
  lockless = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createCatalogApp({ manifest: demoManifest(), registry: "x" }).fetch });
});
afterAll(() => {
  server.stop(true);
  lockless.stop(true);
  tmp.cleanup();
});

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).exitCode).toBe(1);
  return (error as UserError).message;
}

const pinnedAlpha = async (catalog: Awaited<ReturnType<typeof openCatalog>>) => resolveImage(catalog, findTask(catalog, "Alpha-2"), REG);

describe("manifest and lock locations (spec §4.4)", () => {
  test("a URL not ending in .json gets /manifest.json; the query is kept", () => {
    expect(manifestUrl("https://example.org/catalog/?key=1")).toBe("https://example.org/catalog/manifest.json?key=1");
    expect(manifestUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/manifest.json");
    expect(manifestUrl("https://example.org/a/pilot.json?x=1")).toBe("https://example.org/a/pilot.json?x=1");
  });

  test("the service's lock sits beside the manifest URL, same query", () => {
    expect(lockUrlBeside("https://example.org/c/manifest.json?key=1")).toBe("https://example.org/c/images.lock.json?key=1");
  });
});

describe("openCatalog on local files", () => {
  test("a manifest file with images.lock.json beside it pins by digest", async () => {
    const catalog = await openCatalog({ catalog: `${withLock}/manifest.json`, env: {} });
    expect(catalog.lockLocation).toBe(`${withLock}/images.lock.json`);
    expect((await pinnedAlpha(catalog)).ref).toBe(`${REG}/case/demo/alpha-2@${digestOf(1)}`);
  });

  test("a dataset folder reads its manifest.json; without a lock, tags", async () => {
    const catalog = await openCatalog({ catalog: `  ${noLock}  `, env: {} });
    expect(catalog.manifestLocation).toBe(`${noLock}/manifest.json`);
    expect(catalog.lock).toBeUndefined();
    expect(await pinnedAlpha(catalog)).toEqual({ ref: `${REG}/case/demo/alpha-2:demo-v1`, pinned: false, tagRef: `${REG}/case/demo/alpha-2:demo-v1` });
  });

  test("SSEBENCH_CATALOG is the default location, and SSEBENCH_IMAGES_LOCK names the lock", async () => {
    const catalog = await openCatalog({ env: { SSEBENCH_CATALOG: noLock, SSEBENCH_IMAGES_LOCK: `${withLock}/images.lock.json` } });
    expect(catalog.location).toBe(noLock);
    expect((await pinnedAlpha(catalog)).pinned).toBe(true);
  });

  test("a stale lock entry gives the warning of §4.4 and the tag", async () => {
    const catalog = await openCatalog({ catalog: withLock, env: {} });
    const zeta = resolveImage(catalog, findTask(catalog, "zeta-1"), REG);
    expect(zeta.pinned).toBe(false);
    expect(zeta.warning).toBe(
      "The images lock pins task zeta-1 to an image built from other files than the manifest lists; pulling the image by tag instead",
    );
  });

  test("a lock for another dataset version is dropped with a warning", async () => {
    const dir = `${tmp.path}/other-version`;
    await writeCatalogFiles(dir, { lock: { ...demoLock(), version: "demo-v0" } });
    const catalog = await openCatalog({ catalog: dir, env: {} });
    expect(catalog.lock).toBeUndefined();
    expect(catalog.warnings).toEqual([
      `${dir}/images.lock.json is for demo demo-v0, not demo demo-v1; pulling the case images by tag instead`,
    ]);
  });

  test("errors: unreadable, invalid, unknown task, missing named lock, invalid lock", async () => {
    expect(await failure(openCatalog({ catalog: `${tmp.path}/missing.json`, env: {} }))).toStartWith(
      `Cannot read the catalog at ${tmp.path}/missing.json: ENOENT`,
    );
    const bad = `${tmp.path}/bad`;
    await writeCatalogFiles(bad, { manifest: '{"dataset": "demo"}', lock: null });
    expect(await failure(openCatalog({ catalog: bad, env: {} }))).toStartWith(`${bad}/manifest.json is not a valid dataset manifest: `);
    await writeCatalogFiles(bad, { manifest: "{not json", lock: null });
    expect(await failure(openCatalog({ catalog: bad, env: {} }))).toStartWith(`${bad}/manifest.json is not a valid dataset manifest: `);
    const catalog = await openCatalog({ catalog: noLock, env: {} });
    expect(() => findTask(catalog, "nope")).toThrow(`Task nope is not in the catalog at ${noLock} (ssebench tasks list lists its tasks)`);
    expect(await failure(openCatalog({ catalog: noLock, env: { SSEBENCH_IMAGES_LOCK: `${noLock}/gone.json` } }))).toStartWith(
      `Cannot read the images lock at ${noLock}/gone.json: ENOENT`,
    );
    await writeCatalogFiles(bad, { lock: '{"dataset": "demo", "version": "demo-v1"}' });
    expect(await failure(openCatalog({ catalog: bad, env: {} }))).toStartWith(`${bad}/images.lock.json is not a valid images lock: `);
  });
});

describe("openCatalog on a catalog service", () => {
  test("--catalog URL pins through the service's /images.lock.json, like a local lock", async () => {
    const url = `http://127.0.0.1:${server.port}`;
    const catalog = await openCatalog({ catalog: url, env: {} });
    expect(catalog.manifestLocation).toBe(`${url}/manifest.json`);
    expect(catalog.lockLocation).toBe(`${url}/images.lock.json`);
    expect((await pinnedAlpha(catalog)).ref).toBe(`${REG}/case/demo/alpha-2@${digestOf(1)}`);
    const local = await openCatalog({ catalog: withLock, env: {} });
    for (const task of local.manifest.tasks) {
      expect(resolveImage(catalog, findTask(catalog, task.id), REG)).toEqual(resolveImage(local, task, REG));
    }
  });

  test("a service without a lock: tags, no error", async () => {
    const catalog = await openCatalog({ catalog: `http://127.0.0.1:${lockless.port}/`, env: {} });
    expect(catalog.lock).toBeUndefined();
    expect((await pinnedAlpha(catalog)).pinned).toBe(false);
  });

  test("a dead URL is one clear error", async () => {
    const port = closedPort();
    const message = await failure(openCatalog({ catalog: `http://127.0.0.1:${port}`, env: {} }));
    expect(message).toStartWith(`Cannot read the catalog at http://127.0.0.1:${port}/manifest.json: `);
    expect(message).not.toContain("\n");
  });

  test("an HTTP error status is reported with its code", async () => {
    const message = await failure(openCatalog({ catalog: `http://127.0.0.1:${server.port}/nope.json`, env: {} }));
    expect(message).toBe(`Cannot read the catalog at http://127.0.0.1:${server.port}/nope.json: HTTP 404 Not Found`);
  });
});
