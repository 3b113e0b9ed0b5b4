/** The built-in manifest is trusted at run time (JSON.parse only), so it is validated here. */
import { expect, test } from "bun:test";
import { embeddedCatalog, embeddedLockText, embeddedManifestText } from "../../src/catalog/embedded.ts";
import { parseImagesLock } from "../../src/formats/manifest/images-lock.ts";
import { parseManifest } from "../../src/formats/manifest/manifest.ts";
import { repoRoot } from "../helpers/cli.ts";

test("the embedded manifest and lock are the committed bytes and valid for the real models", async () => {
  expect(embeddedManifestText).toBe(await Bun.file(`${repoRoot}/datasets/demo/manifest.json`).text());
  expect(embeddedLockText).toBe(await Bun.file(`${repoRoot}/datasets/demo/images.lock.json`).text());
  const manifest = await parseManifest(embeddedManifestText, "embedded manifest");
  const lock = await parseImagesLock(embeddedLockText, "embedded lock");
  const built = embeddedCatalog();
  expect(built.manifest.tasks.map((t) => t.id)).toEqual(manifest.tasks.map((t) => t.id));
  expect(built.manifest.tasks).toEqual(manifest.tasks.map((t) => ({ ...t, files: t.files ?? undefined })) as never);
  expect(built.lock).toEqual(lock);
});

test("the embedded crash reports are every report the demo manifest names, as its task folders hold them", async () => {
  const { embeddedReportTexts } = await import("../../src/catalog/embedded-reports.ts");
  const { readReportTexts } = await import("../../src/catalog/report-texts.ts");
  const { manifest } = embeddedCatalog();
  const named = manifest.tasks.flatMap((t) => (t.metadata.task_description.crash_report ?? []).map((p) => `${t.id}/${p}`));
  const embedded = embeddedReportTexts();
  expect([...embedded].flatMap(([id, texts]) => [...texts.keys()].map((p) => `${id}/${p}`)).sort()).toEqual(named.sort());
  expect(await readReportTexts(manifest.tasks, `${repoRoot}/datasets/demo`)).toEqual(embedded as never);
});

test("the debian dataset is built in too: its committed bytes, valid, opened by --catalog debian", async () => {
  const { EMBEDDED_DATASETS } = await import("../../src/catalog/embedded.ts");
  const { openCatalog } = await import("../../src/catalog/client.ts");
  const texts = EMBEDDED_DATASETS.debian!;
  expect(texts.manifest).toBe(await Bun.file(`${repoRoot}/datasets/debian/manifest.json`).text());
  expect(texts.lock).toBe(await Bun.file(`${repoRoot}/datasets/debian/images.lock.json`).text());
  const manifest = await parseManifest(texts.manifest, "embedded debian manifest");
  await parseImagesLock(texts.lock, "embedded debian lock");
  const opened = await openCatalog({ catalog: "debian", env: {} });
  expect(opened.embedded).toBe(true);
  expect(opened.location).toBe("the built-in debian dataset");
  expect(opened.manifest.dataset).toBe("debian");
  expect(opened.manifest.tasks.map((t) => t.id)).toEqual(manifest.tasks.map((t) => t.id));
  expect((await openCatalog({ catalog: "demo", env: { SSEBENCH_CATALOG: "debian" } })).manifest.dataset).toBe("demo");
  expect((await openCatalog({ env: { SSEBENCH_CATALOG: "debian" } })).manifest.dataset).toBe("debian");
  expect((await openCatalog({ env: {} })).manifest.dataset).toBe("demo");
});
