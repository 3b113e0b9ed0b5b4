/**
 * The catalog's HTML pages in a real browser: headless Debian Chromium loads them from the running
 * service (CSP header and all); we read the rendered DOM, exercise the filter (by the URL the page
 * honours, and by typing, through a probe script added to a copy of the page), and take screenshots
 * at desktop and phone width that we decode and look at.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ManifestTask } from "../../src/formats/manifest/manifest-types.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";
import { decodePng, inkShare, type Png } from "../helpers/png.ts";
import { demoManifest, writeCatalogFiles } from "./fixtures.ts";
import { type RunningServer, startServer } from "./server-process.ts";

setDefaultTimeout(120_000);
const CHROMIUM = "/usr/bin/chromium";
const tmp = tempDir("ssebench-catalog-browser-");
const DESKTOP = [1280, 900] as const;
const PHONE = [390, 844] as const;
const HOSTILE_TYPE = '<img src=x onerror="document.title=1">';
let demo: RunningServer;
let hostile: RunningServer;

beforeAll(async () => {
  // The project's demo dataset (real crash reports in its task folders) and a hand-made catalog
  // whose values try to break out of the page.
  const manifest = demoManifest();
  const [zeta] = manifest.tasks as [ManifestTask];
  zeta.metadata.type = HOSTILE_TYPE;
  zeta.metadata.task_description.issue = "</pre><script>document.title='pwned'</script>";
  await writeCatalogFiles(`${tmp.path}/hostile`, { manifest });
  [demo, hostile] = await Promise.all([startServer(["--manifest", `${repoRoot}/datasets/demo`]), startServer(["--manifest", `${tmp.path}/hostile`])]);
});
afterAll(async () => {
  await Promise.all([demo.stop(), hostile.stop()]);
  tmp.cleanup();
});

let profiles = 0;
/** Runs headless Chromium once (own profile, no network beyond the URL given). */
async function chromium(args: string[], size: readonly [number, number] = DESKTOP): Promise<string> {
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
      "--hide-scrollbars",
      `--window-size=${size[0]},${size[1]}`,
      `--user-data-dir=${tmp.path}/profile-${profiles++}`,
      ...args,
    ],
    { stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", HOME: tmp.path } },
  );
  const [out, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`chromium exited ${code}: ${stderr}`);
  return out;
}

const renderedDom = (url: string, size?: readonly [number, number]) => chromium(["--dump-dom", url], size);

async function screenshot(url: string, size: readonly [number, number], name: string): Promise<Png> {
  const file = join(tmp.path, `${name}.png`);
  await chromium([`--screenshot=${file}`, url], size);
  const bytes = await Bun.file(file).bytes();
  if (process.env.SSEBENCH_KEEP_SCREENSHOTS) writeFileSync(join(process.env.SSEBENCH_KEEP_SCREENSHOTS, `catalog-${name}.png`), bytes);
  return decodePng(bytes);
}

const text = (html: string) =>
  html.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** The table's rows as [hidden?, cells' text]. */
function rows(dom: string): { hidden: boolean; cells: string[] }[] {
  const body = /<tbody>([^]*)<\/tbody>/.exec(dom)?.[1] ?? "";
  return [...body.matchAll(/<tr( hidden="")?>([^]*?)<\/tr>/g)].map((m) => ({
    hidden: Boolean(m[1]),
    cells: [...(m[2] ?? "").matchAll(/<td[^>]*>([^]*?)<\/td>/g)].map((c) => text(c[1] ?? "")),
  }));
}

const shownCount = (dom: string) => /<span id="shown"[^>]*>([^<]*)<\/span>/.exec(dom)?.[1];

describe("the index page", () => {
  test("a table of the tasks: type, language, sanitizer, project, checks, pinning; each id links to its page", async () => {
    const dom = await renderedDom(`${demo.url}/`);
    expect(dom).toContain("<title>ssebench catalog: demo demo-v1</title>");
    expect(rows(dom)).toEqual([
      { hidden: false, cells: ["fixedbuf-extend-overflow", "Out-of-bounds write (unsafe)", "rust", "—", "fixedbuf", "build, poc, function_test, intent_test", "tagged"] },
      { hidden: false, cells: ["htmlesc-quote-overflow", "Heap-buffer-overflow WRITE", "c", "address", "htmlesc", "build, poc, function_test, intent_test", "tagged"] },
      { hidden: false, cells: ["staticfs-encoded-traversal", "Path traversal", "go", "—", "staticfs", "build, poc, function_test, intent_test", "tagged"] },
    ]);
    expect(shownCount(dom)).toBe("3 of 3 tasks shown");
    expect(dom).toContain('<a href="/html/tasks/htmlesc-quote-overflow">htmlesc-quote-overflow</a>');
  });

  test("?q= filters the rows under the service's CSP (every word must match, any case)", async () => {
    const dom = await renderedDom(`${demo.url}/?q=${encodeURIComponent("OVERFLOW rust")}`);
    expect(rows(dom).map((r) => [r.cells[0], r.hidden])).toEqual([
      ["fixedbuf-extend-overflow", false],
      ["htmlesc-quote-overflow", true],
      ["staticfs-encoded-traversal", true],
    ]);
    expect(shownCount(dom)).toBe("1 of 3 tasks shown");
  });

  test("typing in the filter hides rows at once; at phone width nothing is wider than the screen", async () => {
    // A copy of the served page with a probe after its own script: it types, then reports.
    const page = await (await fetch(`${demo.url}/`)).text();
    const probe = `<script>
var input = document.getElementById("filter");
input.value = "address";
input.dispatchEvent(new Event("input"));
var visible = Array.prototype.filter.call(document.querySelectorAll("#tasks tbody tr"), function (r) { return r.offsetHeight > 0; });
var out = document.createElement("pre");
out.id = "probe";
out.textContent = JSON.stringify({ visible: visible.map(function (r) { return r.cells[0].textContent; }), shown: document.getElementById("shown").textContent, overflow: document.documentElement.scrollWidth - window.innerWidth, width: window.innerWidth, cardLabel: getComputedStyle(visible[0].cells[1], "::before").content });
document.body.appendChild(out);
</script>`;
    const file = join(tmp.path, "typed.html");
    writeFileSync(file, page.replace("</body>", `${probe}\n</body>`));
    const probed = (dom: string) => JSON.parse(text(/<pre id="probe">([^]*?)<\/pre>/.exec(dom)?.[1] ?? "null"));
    // (--dump-dom lays the page out at least 500 px wide: still the phone layout, below 40em.)
    const phone = probed(await renderedDom(`file://${file}`, PHONE));
    expect(phone).toMatchObject({ visible: ["htmlesc-quote-overflow"], shown: "1 of 3 tasks shown", overflow: 0, cardLabel: '"Type: "' });
    expect(phone.width).toBeLessThan(640);
    const desktop = probed(await renderedDom(`file://${file}`, DESKTOP));
    expect(desktop).toMatchObject({ visible: ["htmlesc-quote-overflow"], overflow: 0, width: DESKTOP[0], cardLabel: "none" });
  });

  test("screenshots at desktop and phone width show the table; filtering everything out blanks it", async () => {
    for (const [name, size] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      const full = await screenshot(`${demo.url}/`, size, `index-${name}`);
      const empty = await screenshot(`${demo.url}/?q=no-such-task`, size, `index-${name}-filtered`);
      expect([full.width, full.height]).toEqual([size[0], size[1]]);
      expect([empty.width, empty.height]).toEqual([size[0], size[1]]);
      // The rows sit below the heading and the filter (top 200 px at either width).
      const table = { x: 0, y: 200, width: size[0], height: size[1] - 200 };
      const withRows = inkShare(full, table);
      expect(withRows).toBeGreaterThan(0.01);
      expect(inkShare(empty, table)).toBeLessThan(withRows / 4);
      // The heading is there in both.
      expect(inkShare(empty, { x: 0, y: 0, width: size[0], height: 120 })).toBeGreaterThan(0.005);
    }
  });
});

describe("a task's page", () => {
  test("the statement (crash reports' text), checks and pinning in words, links back to the JSON", async () => {
    const dom = await renderedDom(`${demo.url}/html/tasks/htmlesc-quote-overflow`);
    const report = await Bun.file(`${repoRoot}/datasets/demo/htmlesc-quote-overflow/sse/reports/asan.txt`).text();
    const issue = await Bun.file(`${repoRoot}/datasets/demo/htmlesc-quote-overflow/sse/reports/issue.md`).text();
    const pres = [...dom.matchAll(/<pre>([^]*?)<\/pre>/g)].map((m) => text(m[1] ?? ""));
    expect(pres).toEqual([issue, report]);
    const page = text(dom);
    expect(page).toContain("Vulnerability typeHeap-buffer-overflow WRITE");
    expect(page).toContain("Sanitizeraddress");
    expect(page).toContain("poc: each proof of concept is run against the fixed build and must no longer trigger the vulnerability");
    expect(page).toContain(
      "Not pinned: the images lock has no entry for it, so it is pulled by the tag ghcr.io/42-b3yond-6ug/ssebench/case/demo/htmlesc-quote-overflow:demo-v1, which whoever can push that tag may change.",
    );
    expect(dom).toContain('<a href="/tasks/htmlesc-quote-overflow">task</a>');
    const shot = await screenshot(`${demo.url}/html/tasks/htmlesc-quote-overflow`, PHONE, "task-phone");
    expect([shot.width, shot.height]).toEqual([PHONE[0], PHONE[1]]);
    expect(inkShare(shot, { x: 0, y: 0, width: PHONE[0], height: PHONE[1] })).toBeGreaterThan(0.02);
  });

  test("hostile values stay text: no element, no script from the manifest", async () => {
    for (const url of [`${hostile.url}/`, `${hostile.url}/html/tasks/zeta-1`]) {
      const dom = await renderedDom(url);
      expect(dom).not.toContain("<img");
      expect(dom).not.toContain("pwned</title>");
      expect(/<title>([^<]*)<\/title>/.exec(dom)?.[1]).not.toBe("1");
      expect(text(dom)).toContain(HOSTILE_TYPE);
    }
    const dom = await renderedDom(`${hostile.url}/html/tasks/Alpha-2`);
    expect(text(dom)).toContain("Pinned: pulled by its digest sha256:");
  });
});
