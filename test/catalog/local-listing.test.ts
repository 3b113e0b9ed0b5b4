import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCatalogApp } from "../../src/catalog/app.ts";
import { streamLocalCatalog } from "../../src/catalog/local-listing.ts";
import { bytesSource, scanManifest } from "../../src/catalog/manifest-stream.ts";
import { listTasks } from "../../src/catalog/task-listing.ts";
import { renderManifest } from "../../src/formats/manifest/manifest.ts";
import { tempDir } from "../helpers/cli.ts";
import { demoLock, demoManifest, writeCatalogFiles } from "./fixtures.ts";

const tmp = tempDir("ssebench-local-listing-");
const env = { SSEBENCH_REGISTRY: "reg.example" };
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  await writeCatalogFiles(`${tmp.path}/cat`);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createCatalogApp({ manifest: demoManifest(), lock: demoLock(), registry: "x" }).fetch });
});
afterAll(() => {
  server.stop(true);
  tmp.cleanup();
});

/** The scan of `text`, the same whether the bytes come whole or a few at a time into a small buffer. */
function scanned(text: string): { head: Record<string, unknown> | undefined; tasks: unknown[] } {
  const bytes = new TextEncoder().encode(text);
  const results = [[bytes.length, bytes.length || 1], [3, 4], [1, 1]].map(([chunk, size]) => {
    const tasks: unknown[] = [];
    const head = scanManifest(bytesSource(bytes, chunk), (task) => tasks.push(task) > 0, size);
    return { head, tasks };
  });
  for (const other of results.slice(1)) expect(other).toEqual(results[0] as (typeof results)[0]);
  return results[0] as (typeof results)[0];
}

describe("the manifest scan", () => {
  test("gives each task as JSON.parse reads it, whatever the spacing and the strings hold", () => {
    const tasks = [{ id: "a", s: 'q"u\\o}t]e{[', n: [1, { x: null }], e: "\u00e9\u{1F600}" }, { id: "b" }];
    for (const text of [JSON.stringify({ dataset: "d", version: "v", tasks, z: 1 }), `\r\n ${JSON.stringify({ dataset: "d", version: "v", tasks }, null, "\t")}\n `]) {
      const { head, tasks: got } = scanned(text);
      expect(got).toEqual(tasks);
      const { tasks: _, ...rest } = JSON.parse(text);
      expect(head).toEqual({ ...rest, tasks: [] });
    }
    expect(scanned('{"dataset":"d","version":"v","tasks":[]}').head).toEqual({ dataset: "d", version: "v", tasks: [] });
  });

  test("gives up on anything it does not take as it is (the ordinary reading then words it)", () => {
    for (const text of [
      '{"dataset":"d","version":"v","tasks":[{}]} x',
      '{"dataset":"d","version":"v","tasks":[{} {}]}',
      '{"dataset":"d","version":"v","tasks":[{},]}',
      '{"dataset":"d","version":"v","tasks":[{"a":1]}',
      '{"dataset":"d","version":"v","tasks":[{"a":1}}',
      '{"dataset":"d","version":"v","tasks":[{"a":"1}]}',
      '{"dataset":"d","dataset":"e","version":"v","tasks":[]}',
      '{"tasks":[],"dataset":"d","version":"v"}',
      '{"dataset":"d","version":"v","tasks":{}}',
      '{"dataset":"d","version":"v"}',
      '\uFEFF{"dataset":"d","version":"v","tasks":[]}',
      '{"dataset":d,"version":"v","tasks":[]}',
      '["dataset"]',
      "{}",
      "",
    ]) {
      expect(scanned(text).head).toBeUndefined();
    }
    const notUtf8 = new Uint8Array([...new TextEncoder().encode('{"dataset":"'), 0xff, ...new TextEncoder().encode('","version":"v","tasks":[]}')]);
    expect(scanManifest(bytesSource(notUtf8), () => true)).toBeUndefined();
  });
});

describe("a local catalog listed task by task", () => {
  test("lists what the ordinary reading of the same catalog (over HTTP) lists, warnings included", async () => {
    const streamed = await streamLocalCatalog({ catalog: `${tmp.path}/cat`, env }, () => {});
    expect(streamed?.total).toBe(3);
    const local = await listTasks({ catalog: `${tmp.path}/cat`, env });
    const remote = await listTasks({ catalog: `http://127.0.0.1:${server.port}/`, env });
    expect(local.tasks.map((t) => t.image)).toContain(`reg.example/case/demo/alpha-2@${demoLock().images["Alpha-2"]?.digest}`);
    expect(local.warnings.length).toBe(1);
    expect({ ...local, location: "" }).toEqual({ ...remote, location: "" });
  });

  test("a manifest it does not take (a duplicate id, a lock of another dataset) goes the ordinary way", async () => {
    const manifest = demoManifest();
    manifest.tasks.push({ ...(manifest.tasks[0] as (typeof manifest.tasks)[0]) });
    await writeCatalogFiles(`${tmp.path}/dup`, { manifest: renderManifest(manifest) });
    expect(await streamLocalCatalog({ catalog: `${tmp.path}/dup`, env }, () => {})).toBeUndefined();
    await writeCatalogFiles(`${tmp.path}/other`, { lock: { ...demoLock(), dataset: "other" } });
    const other = await streamLocalCatalog({ catalog: `${tmp.path}/other`, env }, () => {});
    expect(other?.warnings).toHaveLength(1);
    expect(other?.warnings[0]).toContain("other");
  });
});
