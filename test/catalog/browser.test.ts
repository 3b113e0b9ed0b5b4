/** The catalog's HTML page in a real browser: headless Debian Chromium loads / and we read its table. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { tempDir } from "../helpers/cli.ts";
import { writeCatalogFiles } from "./fixtures.ts";
import { type RunningServer, startServer } from "./server-process.ts";

setDefaultTimeout(90_000);
const CHROMIUM = "/usr/bin/chromium";
const tmp = tempDir("ssebench-catalog-browser-");
let server: RunningServer;

beforeAll(async () => {
  await writeCatalogFiles(`${tmp.path}/demo`);
  server = await startServer(["--manifest", `${tmp.path}/demo`]);
});
afterAll(async () => {
  await server.stop();
  tmp.cleanup();
});

/** The DOM after Chromium has loaded and parsed the page (scripts would have run too). */
async function renderedDom(url: string): Promise<string> {
  const profile = `${tmp.path}/profile-${Date.now()}`;
  const proc = Bun.spawn(
    [
      CHROMIUM,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--dump-dom",
      url,
    ],
    { stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", HOME: tmp.path } },
  );
  const [dom, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`chromium exited ${code}: ${stderr}`);
  return dom;
}

const cellText = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

test("Chromium renders / as a table of the tasks, each linking to its JSON", async () => {
  const dom = await renderedDom(`${server.url}/`);
  expect(dom).toContain("<title>ssebench catalog: demo demo-v1</title>");
  const body = /<tbody>([^]*)<\/tbody>/.exec(dom)?.[1] ?? "";
  const rows = [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map((m) => [...(m[1] ?? "").matchAll(/<td[^>]*>([^]*?)<\/td>/g)].map((c) => c[1] ?? ""));
  expect(rows.map((r) => r.map(cellText).slice(0, 4))).toEqual([
    ["Alpha-2", "go", "alpha", "build, poc"],
    ["mid-3", "go", "mid", "build, poc"],
    ["zeta-1", "go", "zeta <&>\u2028x", "build, poc"],
  ]);
  expect(rows.map((r) => cellText(r[4] ?? "").split(" ")[0])).toEqual(["pinned", "tagged", "tagged"]);
  const href = /href="([^"]+)"/.exec(rows[0]?.[0] ?? "")?.[1] ?? "";
  expect(href).toBe("/tasks/Alpha-2");
  const linked = (await (await fetch(new URL(href, server.url))).json()) as { id: string };
  expect(linked.id).toBe("Alpha-2");
});
