import { describe, expect, test } from "bun:test";
import { createCatalogApp } from "../../src/catalog/app.ts";
import { demoLock, demoManifest, digestOf, pinnedFiles, REGISTRY } from "./fixtures.ts";

const app = createCatalogApp({ manifest: demoManifest(), lock: demoLock(), registry: REGISTRY });
const get = (path: string, init?: RequestInit) => app.request(path, init);

describe("catalog app: reference routes (spec §5.3)", () => {
  test("GET /tasks lists every task sorted by id, resolved, without files and metadata", async () => {
    const res = await get("/tasks");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const text = await res.text();
    expect(text.endsWith("}]\n")).toBe(true);
    expect(text).not.toContain("\n ");
    const tasks = JSON.parse(text) as Record<string, unknown>[];
    expect(tasks.map((t) => t.id)).toEqual(["Alpha-2", "mid-3", "zeta-1"]);
    expect(Object.keys(tasks[0] ?? {})).toEqual(["id", "language", "project", "repository", "base", "image", "arch", "checks"]);
    expect(tasks[0]?.base).toBe("registry.example/ns/base-generic-go:1.0.0");
    expect(tasks[0]?.image).toBe(`registry.example/ns/case/demo/alpha-2@${digestOf(1)}`);
    expect(tasks[1]?.image).toBe("registry.example/ns/case/demo/mid-3:demo-v1");
    // zeta-1's lock entry was built from other files: named by tag
    expect(tasks[2]?.image).toBe("registry.example/ns/case/demo/zeta-1:demo-v1");
  });

  test("bodies are encoded like Go's encoder with HTML escaping off", async () => {
    const text = await (await get("/tasks/zeta-1")).text();
    expect(text).toContain('"project":"zeta <&>\\u2028x"');
    // metadata is a json.RawMessage there: compacted as the file has it, U+2028 not re-escaped.
    expect(text).toContain('"issue":"a <b> & c\u2028line"');
    expect(await (await get("/tasks/zeta-1/metadata")).text()).toContain('"issue":"a <b> & c\u2028line"');
    expect(await (await get("/manifest.json")).text()).toContain('"issue":"a <b> & c\u2028line"');
  });

  test("GET /tasks/{id} adds files (keys in code-point order, integer-like keys too) and metadata", async () => {
    const text = await (await get("/tasks/Alpha-2")).text();
    const files = Object.entries(pinnedFiles)
      .sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .map(([k, v]) => `${JSON.stringify(k)}:"${v}"`)
      .join(",");
    expect(text).toContain(`"checks":["build","poc"],"files":{${files}},"metadata":{"id":"Alpha-2","project":"alpha",`);
    expect(files.indexOf("a\uFF21")).toBeLessThan(files.indexOf("a\u{1F600}"));
    expect(text.endsWith("}}\n")).toBe(true);
  });

  test("GET /tasks/{id}/metadata is the task's metadata only, in its original key order", async () => {
    const text = await (await get("/tasks/mid-3/metadata")).text();
    expect(JSON.parse(text)).toEqual(demoManifest().tasks[2]?.metadata as object);
    expect(text.startsWith('{"id":"mid-3","project":"mid","repository":')).toBe(true);
  });

  test("GET /manifest.json: file order, unprefixed names, generated_from only when set", async () => {
    const parsed = (await (await get("/manifest.json")).json()) as { tasks: { id: string; image: string; base: string }[] };
    expect(Object.keys(parsed)).toEqual(["dataset", "version", "tasks"]);
    expect(parsed.tasks.map((t) => t.id)).toEqual(["zeta-1", "Alpha-2", "mid-3"]);
    expect(parsed.tasks[0]?.image).toBe("case/demo/zeta-1");
    expect(parsed.tasks[0]?.base).toBe("base-generic-go:1.0.0");
    const withCommit = createCatalogApp({ manifest: { ...demoManifest(), generated_from: "abc" }, registry: "" });
    const text = await (await withCommit.request("/manifest.json")).text();
    expect(text.startsWith('{"dataset":"demo","version":"demo-v1","generated_from":"abc","tasks":[')).toBe(true);
  });

  test("an empty manifest lists []", async () => {
    const empty = createCatalogApp({ manifest: { dataset: "demo", version: "v1", tasks: [] }, registry: REGISTRY });
    expect(await (await empty.request("/tasks")).text()).toBe("[]\n");
  });

  test("a task without files trusts its lock entry", async () => {
    const manifest = demoManifest();
    const alpha = manifest.tasks[1];
    if (alpha) alpha.files = null;
    const noFiles = createCatalogApp({ manifest, lock: demoLock(), registry: REGISTRY });
    const task = (await (await noFiles.request("/tasks/Alpha-2")).json()) as Record<string, unknown>;
    expect(task.image).toBe(`registry.example/ns/case/demo/alpha-2@${digestOf(1)}`);
    expect("files" in task).toBe(false);
  });

  test("a lock for another dataset version pins nothing", async () => {
    const other = createCatalogApp({ manifest: demoManifest(), lock: { ...demoLock(), version: "demo-v0" }, registry: REGISTRY });
    const tasks = (await (await other.request("/tasks")).json()) as { image: string }[];
    expect(tasks.every((t) => t.image.endsWith(":demo-v1"))).toBe(true);
  });

  test("an unknown id is a plain-text 404 naming it", async () => {
    for (const path of ["/tasks/nope", "/tasks/nope/metadata"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.text()).toBe("task 'nope' not found\n");
    }
  });

  test("other paths are 404 page not found", async () => {
    for (const path of ["/tasks/Alpha-2/other", "/nope", "/tasks/", "/TASKS", "/manifest.json/x"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("404 page not found\n");
    }
  });

  test("other methods on known paths are 405 with Allow", async () => {
    for (const [method, path] of [["POST", "/tasks"], ["DELETE", "/tasks/Alpha-2"], ["PUT", "/manifest.json"], ["OPTIONS", "/"], ["PATCH", "/tasks/x/metadata"]]) {
      const res = await get(path as string, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(await res.text()).toBe("Method Not Allowed\n");
    }
  });
});

describe("catalog app: beyond the reference", () => {
  test("every JSON response has an ETag and Cache-Control; If-None-Match gives 304", async () => {
    for (const path of ["/tasks", "/tasks/Alpha-2", "/tasks/Alpha-2/metadata", "/manifest.json", "/images.lock.json", "/"]) {
      const first = await get(path);
      const etag = first.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      expect(first.headers.get("cache-control")).toBe("public, max-age=60");
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const again = await get(path, { headers: { "if-none-match": inm } });
        expect(again.status).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
        expect(await again.text()).toBe("");
      }
      expect((await get(path, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    }
  });

  test("different bodies have different ETags", async () => {
    const tags = await Promise.all(["/tasks/Alpha-2", "/tasks/mid-3", "/tasks"].map(async (p) => (await get(p)).headers.get("etag")));
    expect(new Set(tags).size).toBe(3);
  });

  test("HEAD answers like GET without a body", async () => {
    const head = await get("/tasks/Alpha-2", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe((await get("/tasks/Alpha-2")).headers.get("etag"));
    expect(await head.text()).toBe("");
    expect((await get("/tasks/nope", { method: "HEAD" })).status).toBe(404);
  });

  test("GET /images.lock.json serves the lock; without one it is 404", async () => {
    const lock = (await (await get("/images.lock.json")).json()) as { images: Record<string, { digest: string }> };
    expect(Object.keys(lock.images)).toEqual(["Alpha-2", "zeta-1"]);
    expect(lock.images["Alpha-2"]?.digest).toBe(digestOf(1));
    const noLock = createCatalogApp({ manifest: demoManifest(), registry: REGISTRY });
    expect((await noLock.request("/images.lock.json")).status).toBe(404);
  });

  test("GET /healthz reports the dataset, task count and pinned count, never cached", async () => {
    const res = await get("/healthz");
    expect(await res.json()).toEqual({ status: "ok", dataset: "demo", version: "demo-v1", tasks: 3, pinned: 1 });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("GET / is an HTML table of the tasks with escaped values, links to their pages and a CSP that allows only its script", async () => {
    const res = await get("/");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<td data-label="Task"><a href="/html/tasks/Alpha-2">Alpha-2</a></td><td data-label="Type">—</td>');
    expect(html).toContain("zeta &lt;&amp;&gt;");
    expect(html).not.toContain("zeta <&>");
    expect(html).toContain("pinned sha256:");
    expect(html.match(/<tr>/g)).toHaveLength(4);
    const script = /<script>([^]*?)<\/script>/.exec(html)?.[1] ?? "";
    const hash = Bun.CryptoHasher.hash("sha256", script, "base64");
    expect(res.headers.get("content-security-policy")).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'self'`,
    );
  });

  test("GET /html/tasks/{id} is the task's page: escaped, no script allowed, cached like the rest", async () => {
    const res = await get("/html/tasks/zeta-1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toStartWith("default-src 'none'; style-src 'unsafe-inline'; script-src 'none';");
    const html = await res.text();
    expect(html).toContain("<h1>zeta-1</h1>");
    expect(html).toContain("<h3>Issue</h3>\n<pre>a &lt;b&gt; &amp; c\u2028line</pre>");
    expect(html).not.toContain("<script");
    expect(html).toContain(
      "Not pinned: the images lock has an entry for it, but that image was built from other files than the catalog lists, so it is pulled by the tag registry.example/ns/case/demo/zeta-1:demo-v1, which whoever can push that tag may change.",
    );
    const etag = res.headers.get("etag") ?? "";
    expect((await get("/html/tasks/zeta-1", { headers: { "if-none-match": etag } })).status).toBe(304);
    const alpha = await (await get("/html/tasks/Alpha-2")).text();
    expect(alpha).toContain(`Pinned: pulled by its digest ${digestOf(1)}, recorded in the dataset&#39;s images lock`);
    expect(alpha).toContain("<dt>Files</dt><dd>5 in the task folder</dd>");
    const missing = await get("/html/tasks/nope");
    expect([missing.status, await missing.text()]).toEqual([404, "task 'nope' not found\n"]);
    expect((await get("/html/tasks/zeta-1", { method: "POST" })).status).toBe(405);
  });

  test("a task page shows a crash report's text when the catalog has it, else where it is", async () => {
    const manifest = demoManifest();
    for (const t of manifest.tasks) t.metadata.task_description = { issue: null, crash_report: ["reports/a.txt", "reports/b.txt"], bug_description: "it <breaks>" };
    const reports = new Map([["mid-3", new Map([["reports/a.txt", "ASAN <heap>"]])]]);
    const html = await (await createCatalogApp({ manifest, registry: "", reports }).request("/html/tasks/mid-3")).text();
    expect(html).toContain("<h3>Crash report <code>reports/a.txt</code></h3>\n<pre>ASAN &lt;heap&gt;</pre>");
    expect(html).toContain('<h3>Crash report <code>reports/b.txt</code></h3>\n<p class="muted">The text is not in this catalog: it is the file sse/reports/b.txt of the task folder.</p>');
    expect(html).toContain("<h3>Bug description</h3>\n<pre>it &lt;breaks&gt;</pre>");
  });
});

describe("catalog app: hostile requests never give a 500 nor anything outside the manifest", () => {
  const hostile = [
    "/tasks/..%2f..",
    "/tasks/..%2F..%2F..%2Fetc%2Fpasswd",
    "/tasks/%2e%2e/%2e%2e/etc/passwd",
    "/tasks/..%5c..%5cwindows",
    `/tasks/${"a".repeat(10_240)}`,
    `/tasks/${"%41".repeat(3_000)}/metadata`,
    "/tasks/%",
    "/tasks/%zz",
    "/tasks/%E0%A4%A",
    "/tasks/%C0%AF",
    "/tasks/%00",
    "/tasks/%ff%fe",
    "/tasks/Alpha-2%00",
    "/tasks?a=%zz&&&=&b[]=1&%%%",
    "/tasks/Alpha-2?x=<script>alert(1)</script>",
    "//tasks",
    "/tasks//Alpha-2",
    "/tasks/Alpha-2/",
    "/./tasks",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/manifest.json%00.html",
    "/images.lock.json/..",
  ];
  for (const path of hostile) {
    test(`GET ${path.length > 60 ? `${path.slice(0, 50)}… (${path.length} chars)` : path}`, async () => {
      const res = await get(path);
      expect([200, 304, 404]).toContain(res.status);
      const body = await res.text();
      if (res.status === 404) expect(body).toMatch(/^(404 page not found|task '[^]*' not found)\n$/);
      expect(body).not.toContain("root:");
    });
  }
  for (const method of ["PROPFIND", "TRACE", "M-SEARCH"]) {
    test(`method ${method}`, async () => {
      const res = await get("/tasks", { method });
      expect(res.status).toBe(405);
    });
  }
});
