/** `ssebench catalog serve` through a real socket: the compiled binary, as users run it. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { hasNoStackTrace, repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { demoManifest, digestOf, writeCatalogFiles } from "./fixtures.ts";
import { rawRequest, type RunningServer, startServer } from "./server-process.ts";

setDefaultTimeout(60_000);
const tmp = tempDir("ssebench-catalog-serve-");
const dir = `${tmp.path}/demo`;
let server: RunningServer;

beforeAll(async () => {
  await writeCatalogFiles(dir);
  server = await startServer(["--manifest", `${dir}/manifest.json`], { SSEBENCH_REGISTRY: "reg.example/ns" });
});
afterAll(async () => {
  await server.stop("SIGKILL");
  tmp.cleanup();
});

describe("catalog serve over a socket", () => {
  test("logs one plain line with the URL, the task count and the pinned count", () => {
    expect(server.log[0]).toContain(`serving 3 tasks of demo-v1 from ${dir}/manifest.json on ${server.url}`);
    expect(server.log[0]).toContain("1 of 3 case images named by digest");
    expect(server.log.join("\n")).not.toContain("\u001b[");
  });

  test("serves the expected bytes for every route (literal digests, not a comparison with the app's own code)", async () => {
    // path → status, content type, cache control, length and SHA-256 of the body (demo fixtures, registry reg.example/ns)
    const expected: [string, string, string, number, string][] = [
      ["/", "text/html; charset=utf-8", "public, max-age=60", 4201, "71327d03648f34a17d1fdc34fe38b5c3d89f856c06507fe353742df85c6405cf"],
      ["/html/tasks/mid-3", "text/html; charset=utf-8", "public, max-age=60", 2686, "758299f3e8250b41f96ad571e56c5cd477b365151823dbcec7be7d04935cd43f"],
      ["/healthz", "application/json", "no-store", 74, "cce0da12e22df3c45ac42fe239ed7791783de98b243de69eea592ca807f55fc1"],
      ["/tasks", "application/json", "public, max-age=60", 764, "635ade5d931b8d2d3a430bd2622eb1a9efe00736fc64c962bccb5988ffd93a65"],
      ["/tasks/Alpha-2", "application/json", "public, max-age=60", 1195, "7c65f48c7c8a4b7585803c4d32d11f6525569bcd2445d0780c0fc13d677ee7af"],
      ["/tasks/zeta-1/metadata", "application/json", "public, max-age=60", 498, "9ae0114daec86c7c99959e1b8a0d130f30189888946c13e59b3d50de6424646a"],
      ["/manifest.json", "application/json", "public, max-age=60", 2720, "a496627773800b5cb7ca0febe324653d477d22b371fe1a98d53621b9c8fe5256"],
      ["/images.lock.json", "application/json", "public, max-age=60", 511, "f1cd435d7eb071943f588f1137e6741d4ed790684d60f97a30151b0aa8c3a23e"],
    ];
    for (const [path, type, cache, length, sha256] of expected) {
      const real = await fetch(server.url + path);
      const body = await real.text();
      expect([path, real.status, real.headers.get("content-type"), real.headers.get("cache-control")]).toEqual([path, 200, type, cache]);
      expect(real.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
      expect([path, body.length, new Bun.CryptoHasher("sha256").update(body).digest("hex")]).toEqual([path, length, sha256]);
    }
    const tasks = (await (await fetch(`${server.url}/tasks`)).json()) as { image: string }[];
    expect(tasks[0]?.image).toBe(`reg.example/ns/case/demo/alpha-2@${digestOf(1)}`);
  });

  test("304 on If-None-Match, on the fast path and through the router (percent-encoded path)", async () => {
    for (const path of ["/tasks/Alpha-2", "/tasks/%41lpha-2", "/ta%73ks"]) {
      const first = await fetch(server.url + path);
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag") ?? "";
      const again = await fetch(server.url + path, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    }
  });

  test("HEAD: status and headers without a body", async () => {
    const head = await rawRequest(server.url, "HEAD /tasks HTTP/1.1");
    expect(head.status).toBe(200);
    expect(head.head.toLowerCase()).toContain("etag:");
    expect(head.body).toBe("");
  });

  test("errors: unknown id, unknown path, wrong or unknown method", async () => {
    expect(await rawRequest(server.url, "GET /tasks/nope HTTP/1.1")).toMatchObject({ status: 404, body: "task 'nope' not found\n" });
    expect(await rawRequest(server.url, "GET /tasks/x/y HTTP/1.1")).toMatchObject({ status: 404, body: "404 page not found\n" });
    for (const method of ["POST", "DELETE", "PROPFIND"]) {
      for (const path of ["/tasks", "/tasks/Alpha-2", "/tasks/%41lpha-2"]) {
        const res = await rawRequest(server.url, `${method} ${path} HTTP/1.1`, ["Content-Length: 0"]);
        expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 405`);
        expect(res.head.toLowerCase()).toContain("allow: get, head");
      }
    }
    // Bun reports a method it does not know as GET, indistinguishable from a GET spelled
    // `/./tasks`: both get the reference's redirect for the latter (README: differences).
    for (const method of ["FOO", "BREW"]) {
      const res = await rawRequest(server.url, `${method} /tasks HTTP/1.1`, ["Content-Length: 0"]);
      expect(res.status).toBe(301);
    }
  });

  test("paths that are not clean: 301 to the clean path, as Go's ServeMux (GET body, HEAD headers)", async () => {
    const moved = (location: string) => `<a href="${location}">Moved Permanently</a>.\n\n`;
    for (const [path, location] of [
      ["/./tasks", "/tasks"],
      ["/tasks/..", "/"],
      ["/tasks/%2e%2e", "/"],
      ["//tasks?a=1", "/tasks?a=1"],
      ["/tasks/Alpha-2/../zeta-1", "/tasks/zeta-1"],
      ["//tasks/zeta-1/", "/tasks/zeta-1/"],
      ["/tasks/a%2F..%2Fzeta-1", "/tasks/zeta-1"],
    ] as const) {
      const get = await rawRequest(server.url, `GET ${path} HTTP/1.1`);
      expect({ path, status: get.status, body: get.body }).toEqual({ path, status: 301, body: moved(location) });
      expect(get.head.split("\r\n")).toEqual(expect.arrayContaining([`Location: ${location}`, "Content-Type: text/html; charset=utf-8"]));
      const head = await rawRequest(server.url, `HEAD ${path} HTTP/1.1`);
      expect({ path, status: head.status, body: head.body }).toEqual({ path, status: 301, body: "" });
      expect(head.head.toLowerCase().split("\r\n")).toContain(`content-length: ${moved(location).length}`);
    }
    // Dot segments that lead to no known path cannot be seen (Bun removed them): the normalised path answers.
    expect(await rawRequest(server.url, "GET /tasks/Alpha-2/../nope HTTP/1.1")).toMatchObject({ status: 404, body: "task 'nope' not found\n" });
    // A percent-encoded spelling of a clean path is the path itself (Go decodes before routing).
    expect((await rawRequest(server.url, "GET /ta%73ks HTTP/1.1")).status).toBe(200);
    expect((await rawRequest(server.url, "HEAD /ta%73ks HTTP/1.1")).status).toBe(200);
  });

  test("a # in the request line is part of the path (a request line has no fragment)", async () => {
    expect(await rawRequest(server.url, "GET /tasks#frag HTTP/1.1")).toMatchObject({ status: 404, body: "404 page not found\n" });
    expect(await rawRequest(server.url, "GET /tasks/zeta-1#x/metadata HTTP/1.1")).toMatchObject({ status: 404, body: "task 'zeta-1#x' not found\n" });
    expect(await rawRequest(server.url, "GET /tasks?q#frag HTTP/1.1")).toMatchObject({ status: 200 });
  });

  test("HEAD of an error sends the GET's Content-Length (RFC 9110 §8.6)", async () => {
    for (const [path, body] of [
      ["/nope", "404 page not found\n"],
      ["/tasks/nope", "task 'nope' not found\n"],
      ["/tasks/%41lpha-2/x", "404 page not found\n"],
    ] as const) {
      const head = await rawRequest(server.url, `HEAD ${path} HTTP/1.1`);
      expect(head.status).toBe(404);
      expect(head.body).toBe("");
      expect(head.head.toLowerCase().split("\r\n")).toContain(`content-length: ${body.length}`);
    }
  });

  test("two Host headers are 400 (RFC 9112 §3.2), with Go's body", async () => {
    for (const path of ["/tasks/nope", "/tasks/Alpha-2", "/tasks/zeta-1/metadata", "/nope"]) {
      const res = await rawRequest(server.url, `GET ${path} HTTP/1.1`, ["Host: other.example"]);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: "400 Bad Request: too many Host headers" });
      expect(res.head.split("\r\n")).toContain("Connection: close");
    }
  });

  test("hostile raw paths: never a 500, never a file", async () => {
    const paths = [
      "/tasks/../../../../etc/passwd",
      "/tasks/..%2f..%2f..%2fetc%2fpasswd",
      "/../../etc/passwd",
      "/tasks/%2e%2e/%2e%2e/etc/passwd",
      `/tasks/${"x".repeat(10_240)}`,
      "/tasks/%",
      "/tasks/%zz%",
      "/tasks/%C0%AE%C0%AE",
      "/tasks/%00",
      "/tasks?%%%&&=&a[b]=<x>",
      "//tasks///",
      "/tasks/Alpha-2;x=1",
      "*",
      "http://evil.example/tasks",
    ];
    for (const path of paths) {
      const res = await rawRequest(server.url, `GET ${path} HTTP/1.1`);
      expect(res.status === 500 ? `${path}: 500` : "ok").toBe("ok");
      expect(res.status).toBeLessThan(500);
      expect(res.body).not.toContain("root:");
    }
  });
});

describe("catalog serve start-up and shutdown", () => {
  test("SIGTERM lets a request in flight finish, refuses new ones, exits 0", async () => {
    // A manifest of ~20 MB: its body cannot sit in socket buffers, so the response stays in flight
    // while the client reads slowly.
    const big = `${tmp.path}/big`;
    const manifest = demoManifest();
    const template = manifest.tasks[0];
    if (!template) throw new Error("fixture has tasks");
    manifest.tasks = Array.from({ length: 400 }, (_, i) => ({
      ...template,
      id: `task-${String(i).padStart(4, "0")}`,
      files: Object.fromEntries(Array.from({ length: 500 }, (_, j) => [`src/file-${j}.c`, "a".repeat(64)])),
    }));
    await writeCatalogFiles(big, { manifest, lock: null });
    const slow = await startServer(["--manifest", big]);
    const response = await fetch(`${slow.url}/manifest.json`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = (await reader.read()).value?.length ?? 0;
    slow.proc.kill("SIGTERM");
    // Wait for the event, not a fixed time: the server says it is stopping, then closes its listener.
    let refused = false;
    for (let i = 0; i < 500 && !refused; i++) {
      if (slow.log.some((l) => l.includes("stopping"))) refused = await fetch(`${slow.url}/healthz`).then(() => false, () => true);
      if (!refused) await Bun.sleep(10);
    }
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.length;
    }
    expect(Number(response.headers.get("content-length"))).toBe(received);
    expect(received).toBeGreaterThan(15_000_000);
    expect(refused).toBe(true);
    expect(await slow.proc.exited).toBe(0);
  }, 60_000);

  test("SIGINT exits 0 too", async () => {
    const s = await startServer(["--manifest", dir]);
    expect(await s.stop("SIGINT")).toBe(0);
  });

  test("flags beat environment variables; the environment beats defaults", async () => {
    const s = await startServer([], { SSEBENCH_MANIFEST: `${dir}/manifest.json`, SSEBENCH_REGISTRY: "env.example" });
    const tasks = (await (await fetch(`${s.url}/tasks`)).json()) as { base: string }[];
    expect(tasks[0]?.base).toBe("env.example/base-generic-go:1.0.0");
    await s.stop();
    const f = await startServer(["--registry", "flag.example/"], { SSEBENCH_MANIFEST: `${dir}/manifest.json`, SSEBENCH_REGISTRY: "env.example" });
    const flagged = (await (await fetch(`${f.url}/tasks`)).json()) as { base: string }[];
    expect(flagged[0]?.base).toBe("flag.example/base-generic-go:1.0.0");
    await f.stop();
  });

  test("without --manifest it serves the dataset built into the binary", async () => {
    const s = await startServer();
    const health = (await (await fetch(`${s.url}/healthz`)).json()) as { dataset: string };
    expect(health.dataset).toBe("demo");
    await s.stop();
  });

  const startupFailures: [string, string[], Record<string, string>, (d: string) => string][] = [
    ["a missing manifest", ["--manifest", "/nonexistent/manifest.json"], {}, () => "Cannot read the catalog at /nonexistent/manifest.json: ENOENT"],
    ["an invalid manifest", ["--manifest", "BAD/manifest.json"], {}, (d) => `${d}/manifest.json is not a valid dataset manifest: `],
    ["a missing lock that was asked for", ["--manifest", "DIR", "--lock", "/nonexistent/lock.json"], {}, () => "Cannot read the images lock at /nonexistent/lock.json: ENOENT"],
    ["a missing lock named by the environment", ["--manifest", "DIR"], { SSEBENCH_IMAGES_LOCK: "/nonexistent/l.json" }, () => "Cannot read the images lock at /nonexistent/l.json"],
    ["an invalid lock beside the manifest", ["--manifest", "BADLOCK"], {}, (d) => `${d}/images.lock.json is not a valid images lock: `],
  ];
  for (const [name, args, env, expected] of startupFailures) {
    test(`${name} stops start-up with one line, exit 1`, async () => {
      const bad = `${tmp.path}/bad`;
      const badLock = `${tmp.path}/badlock`;
      await writeCatalogFiles(bad, { manifest: '{"dataset":"demo","version":"v1","tasks":[{"id":"x"}]}', lock: null });
      await writeCatalogFiles(badLock, { lock: '{"dataset":"demo"}' });
      const resolved = args.map((a) => a.replace(/^BADLOCK$/, badLock).replace(/^BAD/, bad).replace(/^DIR$/, dir));
      const r = await ssebench(["catalog", "serve", "--port", "0", ...resolved], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toStartWith(expected(name.includes("beside") ? badLock : bad));
      expect(hasNoStackTrace(r.stderr)).toBe(true);
    });
  }

  test("a bad port is a usage error (flag) or a failure (environment)", async () => {
    const flag = await ssebench(["catalog", "serve", "--port", "http"]);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe("ssebench catalog serve: --port must be a port number from 0 to 65535, not 'http'\n");
    const env = await ssebench(["catalog", "serve"], { env: { SSEBENCH_CATALOG_PORT: "70000" } });
    expect(env.exitCode).toBe(1);
    expect(env.stderr).toBe("SSEBENCH_CATALOG_PORT must be a port number from 0 to 65535, not '70000'\n");
  });

  test("a port in use is one line, exit 1", async () => {
    const port = new URL(server.url).port;
    const r = await ssebench(["catalog", "serve", "--host", "127.0.0.1", "--port", port, "--manifest", dir]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith(`Cannot listen on 127.0.0.1:${port}: `);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("catalog serve publishes the manifest as written (the reference passes values through)", () => {
  // Metadata in its own key order, optional keys absent, strings with edge whitespace (NBSP, U+2028).
  const metadata = {
    project: "\u00a0ws\u2028",
    id: "ws-1",
    repository: " https://example.org/ws ",
    language: "go",
    source: "/src",
    task_description: { issue: " café " },
    scripts: {},
    files: {},
  };
  const entry = { id: "ws-1", language: "go", project: " ws\u2028", repository: "https://example.org/ws", base: "b:1", image: "case/demo/ws-1", arch: ["amd64"], checks: [], metadata };
  // Go compacts json.RawMessage bytes: the escapes (`\/`, `\u00e9`) stay as written in the file.
  const metadataBytes = '{"project":"\u00a0ws\u2028","id":"ws-1","repository":" https://example.org/ws ","language":"go","source":"\\/src","task_description":{"issue":" caf\\u00e9 "},"scripts":{},"files":{}}';

  test("/tasks/{id}/metadata, /tasks/{id}, /tasks and /manifest.json keep every string and key order", async () => {
    const asWritten = `${tmp.path}/as-written`;
    const written = JSON.stringify({ dataset: "demo", version: "demo-v1", tasks: [entry] }, null, 2).replace('"/src"', '"\\/src"').replace("café", "caf\\u00e9");
    await writeCatalogFiles(asWritten, { manifest: written, lock: null });
    const s = await startServer(["--manifest", asWritten, "--registry", "reg"]);
    const body = async (path: string) => (await fetch(s.url + path)).text();
    const summary = '{"id":"ws-1","language":"go","project":" ws\\u2028","repository":"https://example.org/ws","base":"reg/b:1","image":"reg/case/demo/ws-1:demo-v1","arch":["amd64"],"checks":[]';
    expect(await body("/tasks/ws-1/metadata")).toBe(`${metadataBytes}\n`);
    expect(await body("/tasks/ws-1")).toBe(`${summary},"metadata":${metadataBytes}}\n`);
    expect(await body("/tasks")).toBe(`[${summary}}]\n`);
    expect(await body("/manifest.json")).toBe(
      `{"dataset":"demo","version":"demo-v1","tasks":[{"id":"ws-1","language":"go","project":" ws\\u2028","repository":"https://example.org/ws","base":"b:1","image":"case/demo/ws-1","arch":["amd64"],"checks":[],"metadata":${metadataBytes}}]}\n`,
    );
    await s.stop();
  });

  test('a task id listed twice stops start-up: duplicate task id "<id>"', async () => {
    const twice = `${tmp.path}/twice`;
    await writeCatalogFiles(twice, { manifest: JSON.stringify({ dataset: "demo", version: "demo-v1", tasks: [entry, { ...entry, project: "other" }] }), lock: null });
    const r = await ssebench(["catalog", "serve", "--port", "0", "--manifest", twice]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`${twice}/manifest.json is not a valid dataset manifest: duplicate task id "ws-1"\n`);
    const list = await ssebench(["tasks", "list", "--catalog", twice]);
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toBe(`${twice}/manifest.json is not a valid dataset manifest: duplicate task id "ws-1"\n`);
  });
});

const pilot = join(repoRoot, "../shared/conformance/pilot");
const hasPilot = await Bun.file(`${pilot}/manifest.json`).exists();
describe.skipIf(!hasPilot)("catalog serve on the pilot data (../shared)", () => {
  test("pins 54 tasks by digest and tags the stale one", async () => {
    const s = await startServer(["--manifest", `${pilot}/manifest.json`]);
    const tasks = (await (await fetch(`${s.url}/tasks`)).json()) as { id: string; image: string }[];
    await s.stop();
    expect(tasks).toHaveLength(55);
    expect(tasks.filter((t) => t.image.includes("@sha256:"))).toHaveLength(54);
    expect(tasks.find((t) => !t.image.includes("@"))).toMatchObject({
      id: "generic-c-libxml2-xml_commit_0bcd05c",
      image: "ghcr.io/42-b3yond-6ug/ssebench/case/pilot/generic-c-libxml2-xml_commit_0bcd05c:pilot-v1",
    });
  });
});
