/** catalog serve's signal handling, in process: a signal at any moment of start-up stops it cleanly. */
import { afterAll, expect, test } from "bun:test";
import { serveCatalog } from "../../src/catalog/serve.ts";
import { tempDir } from "../helpers/cli.ts";
import { demoManifest, writeCatalogFiles } from "./fixtures.ts";

const tmp = tempDir("ssebench-serve-signals-");
afterAll(tmp.cleanup);

test("the start line is logged only once SIGTERM and SIGINT have listeners (a client may signal on reading it)", async () => {
  await writeCatalogFiles(tmp.path, { manifest: demoManifest(), lock: null });
  const before = { term: process.listenerCount("SIGTERM"), int: process.listenerCount("SIGINT") };
  const seen: string[] = [];
  const log = {
    info(message: string) {
      seen.push(`${message.split(" ")[0]} ${process.listenerCount("SIGTERM") - before.term} ${process.listenerCount("SIGINT") - before.int}`);
      // Signal the moment the start line appears, as a supervisor reading the log would.
      if (message.startsWith("serving")) queueMicrotask(() => process.emit("SIGINT", "SIGINT"));
    },
  };
  const code = await serveCatalog({ manifest: tmp.path, registry: "r", port: 0, host: "127.0.0.1" }, log);
  expect(code).toBe(0);
  expect(seen).toEqual(["serving 1 1", "SIGINT: 0 0"]);
  expect(process.listenerCount("SIGTERM")).toBe(before.term);
});
