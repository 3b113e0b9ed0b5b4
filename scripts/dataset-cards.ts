/**
 * The per-task cards of a dataset whose tasks pin upstream sources (datasets/debian), generated
 * into its README.md from each task's upstream/sources.yaml and sse/config.yaml and the dataset's
 * measurements.json, so the cards cannot drift from the configs.
 *
 *   bun scripts/dataset-cards.ts [DIR]            write DIR/README.md (default datasets/debian)
 *   bun scripts/dataset-cards.ts [DIR] --check    exit 1 when README.md is not what would be written
 *   bun scripts/dataset-cards.ts [DIR] [--verified OUT] --measure TASK...
 *       build each task's case image from scratch (no layer cache, the sources from the cache),
 *       run `dist/ssebench dataset verify` on it (or read the verdict a finished
 *       `dataset verify --output OUT` left in OUT/tasks/<id>.json: of a --repeat N, the mean of
 *       the N), and record build seconds, image size and verify seconds in DIR/measurements.json;
 *       then write README.md. Needs the engine and base images.
 */
import { readdirSync, readFileSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";

interface Card {
  id: string;
  project: string;
  repository: string;
  type: string;
  package: string;
  version: string;
  cve: string;
  published: string;
  fixed: string;
  cwe: string;
  left_out: string;
  poc: string;
  tests: "upstream" | "here";
  language: string;
}
interface Measurement {
  build_seconds: number;
  image_mb: number;
  verify_seconds: number;
  measured: string;
}

const MEASUREMENTS = "measurements.json";
const fail = (line: string, code = 1): never => {
  console.error(`dataset-cards: ${line}`);
  process.exit(code);
};
const USAGE = "usage: bun scripts/dataset-cards.ts [DIR] [--check] [--verified OUT] [--measure TASK...]";

/** A YAML or JSON file as data, or one line naming the file and the first problem. */
function readData(file: string, parseText: (text: string) => unknown): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseText(readFileSync(file, "utf8"));
  } catch (cause) {
    fail(`${file}: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) fail(`${file}: must be a mapping`);
  return data as Record<string, unknown>;
}

function readCard(dir: string, id: string): Card {
  const sourcesFile = join(dir, id, "upstream", "sources.yaml");
  const configFile = join(dir, id, "sse", "config.yaml");
  if (!existsSync(sourcesFile)) fail(`${sourcesFile}: missing (every task of this dataset pins its sources there)`);
  const sources = readData(sourcesFile, parse);
  const config = readData(configFile, parse);
  for (const key of ["package", "version", "cve", "cwe", "left_out", "poc", "tests"]) {
    if (typeof sources[key] !== "string" || !(sources[key] as string).trim()) fail(`${sourcesFile}: ${key}: must be a non-empty string`);
  }
  // Every task of this dataset has both days (the format alone lets a file that only pins go without).
  for (const key of ["published", "fixed"]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(sources[key] ?? ""))) fail(`${sourcesFile}: ${key}: must be a date, YYYY-MM-DD`);
  }
  if (!/^CVE-\d{4}-\d{4,}$/.test(sources.cve as string)) fail(`${sourcesFile}: cve: must look like CVE-2024-12345`);
  if (!/^CWE-\d+$/.test(sources.cwe as string)) fail(`${sourcesFile}: cwe: must look like CWE-787`);
  if (sources.tests !== "upstream" && sources.tests !== "here") fail(`${sourcesFile}: tests: must be upstream or here`);
  const text = (v: unknown) => String(v ?? "").trim();
  return {
    id,
    project: text(config.project),
    repository: text(config.repository),
    type: text(config.type),
    language: text(config.language),
    package: text(sources.package),
    version: text(sources.version),
    cve: text(sources.cve),
    published: text(sources.published),
    fixed: text(sources.fixed),
    cwe: text(sources.cwe),
    left_out: text(sources.left_out),
    poc: text(sources.poc),
    tests: sources.tests as Card["tests"],
  };
}

function taskIds(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`${dir}: not a dataset folder`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
}

function readMeasurements(dir: string): Record<string, Measurement> {
  const file = join(dir, MEASUREMENTS);
  return existsSync(file) ? (readData(file, JSON.parse) as unknown as Record<string, Measurement>) : {};
}

const cell = (s: string) => s.replaceAll("|", "\\|");
const seconds = (m: Measurement | undefined, key: "build_seconds" | "verify_seconds") => (m ? `${Math.round(m[key])} s` : "not measured");
const size = (m: Measurement | undefined) => (m ? `${(m.image_mb / 1000).toFixed(2)} GB` : "not measured");

export function renderCards(dir: string): string {
  const cards = taskIds(dir).map((id) => readCard(dir, id));
  const measured = readMeasurements(dir);
  const version = String(readData(join(dir, "dataset.yaml"), parse).version ?? "");
  const out: string[] = [
    `# The Debian dataset (${version})`,
    "",
    "<!-- Generated by scripts/dataset-cards.ts from each task's upstream/sources.yaml and sse/config.yaml",
    `     and ${MEASUREMENTS}; CI checks it (--check). Do not edit by hand. -->`,
    "",
    "Real vulnerabilities fixed in Debian 12 (bookworm) security and point updates. Each task's tree is",
    "the Debian source package at the pinned version with every patch of its series applied except the",
    "fix the task is about (and without `debian/`); the reference patch is that fix's code; the PoC and",
    "the issue text were written here. The sources are fetched from Debian's archive on the host, checked",
    "by sha256, and never stored in this repository (docs/dataset-debian.md).",
    "",
    "Times were measured on the development machine (2 shared cores): a case-image build without the",
    "layer cache, and `ssebench dataset verify` of the task (reference and dummy agent, every check; of a",
    "`verify --repeat N`, the mean of the N). The cores are shared with other builds and verifies, and a",
    "verify's time grows with the load: compare tasks measured on the same day (docs/dataset-debian.md).",
    "",
    "Published is the day the CVE was published; Fixed, the day of the Debian update that fixed it.",
    "",
    "| Task | CVE | Published | Fixed | Project | Class | Build | Image | Verify |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const c of cards) {
    const m = measured[c.id];
    out.push(`| [${c.id}](#${c.id}) | ${c.cve} | ${c.published} | ${c.fixed} | ${cell(c.project)} | ${c.cwe} | ${seconds(m, "build_seconds")} | ${size(m)} | ${seconds(m, "verify_seconds")} |`);
  }
  for (const c of cards) {
    const m = measured[c.id];
    out.push(
      "",
      `## ${c.id}`,
      "",
      "| | |",
      "|---|---|",
      `| CVE | [${c.cve}](https://security-tracker.debian.org/tracker/${c.cve}) |`,
      `| Published, fixed | ${c.published} (the CVE), ${c.fixed} (the Debian update) |`,
      `| Project | ${cell(c.project)} (${c.language}), ${c.repository} |`,
      `| Debian source | ${cell(c.package)} ${cell(c.version)}, without \`debian/patches/${cell(c.left_out)}\` |`,
      `| Class | ${c.cwe}: ${cell(c.type)} |`,
      `| PoC shows | ${cell(c.poc)} |`,
      `| Hidden tests | ${c.tests === "upstream" ? "the upstream tests that came with the fix" : "written here (the fix came without a test)"} |`,
      `| Build time | ${seconds(m, "build_seconds")} |`,
      `| Image size | ${size(m)} |`,
      `| Verify time | ${seconds(m, "verify_seconds")}${m ? ` (measured ${m.measured})` : ""} |`,
    );
  }
  return `${out.join("\n")}\n`;
}

async function run(cmd: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The classic builder, as ssebench builds case images (FROM ${ARG} resolves to local images).
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, DOCKER_BUILDKIT: "0" } });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** The seconds of one verify in a passing verdict file: with `--repeat N`, the mean of the N. */
export function verdictSeconds(file: string, id: string): number {
  const verdict = readData(file, JSON.parse) as { ok?: boolean; seconds?: number; repetitions?: unknown };
  if (verdict.ok !== true || typeof verdict.seconds !== "number") fail(`${file}: ${id} did not verify`);
  const repetitions = Array.isArray(verdict.repetitions) ? verdict.repetitions.length : 1;
  return (verdict.seconds as number) / Math.max(1, repetitions);
}

async function verifySeconds(dir: string, id: string, verified: string | undefined): Promise<number> {
  if (verified) {
    const file = join(verified, "tasks", `${id}.json`);
    if (!existsSync(file)) fail(`${file}: missing (no verdict of ${id} in ${verified})`);
    return verdictSeconds(file, id);
  }
  const started = performance.now();
  const verify = await run(["./dist/ssebench", "dataset", "verify", "--dir", dir, id]);
  if (verify.code !== 0) fail(`${id}: dataset verify failed:\n${verify.stdout}${verify.stderr.slice(-2000)}`);
  return (performance.now() - started) / 1000;
}

async function measure(dir: string, ids: string[], verified: string | undefined): Promise<void> {
  const { stageUpstreamContext, sourcesCacheDir } = await import("../src/run/layers/upstream-sources.ts");
  const registry = process.env.SSEBENCH_REGISTRY || "ghcr.io/42-b3yond-6ug/ssebench";
  const measured = readMeasurements(dir);
  for (const id of ids) {
    const staged = await stageUpstreamContext(join(dir, id), { cacheDir: sourcesCacheDir() }).catch((e: Error) => fail(`${id}: ${e.message}`));
    if (!staged) fail(`${id}: no upstream/sources.yaml`);
    const tag = `ssebench-measure/${id}:latest`;
    const started = performance.now();
    const build = await run(["docker", "build", "--no-cache", "--force-rm", "--network", "none", "--build-arg", `SSEBENCH_REGISTRY=${registry}`, "-t", tag, staged!.context]);
    const buildSeconds = (performance.now() - started) / 1000;
    staged!.cleanup();
    if (build.code !== 0) fail(`${id}: docker build failed:\n${build.stdout.slice(-3000)}${build.stderr.slice(-2000)}`);
    const inspect = await run(["docker", "image", "inspect", "--format", "{{.Size}}", tag]);
    await run(["docker", "rmi", tag]);
    const seconds = await verifySeconds(dir, id, verified);
    measured[id] = { build_seconds: Math.round(buildSeconds), image_mb: Math.round(Number(inspect.stdout.trim()) / 1e6), verify_seconds: Math.round(seconds), measured: new Date().toISOString().slice(0, 10) };
    console.log(`${id}: build ${measured[id]!.build_seconds} s, image ${measured[id]!.image_mb} MB, verify ${measured[id]!.verify_seconds} s`);
  }
  const sorted = Object.fromEntries(Object.entries(measured).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(join(dir, MEASUREMENTS), `${JSON.stringify(sorted, null, 2)}\n`);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const measureAt = args.indexOf("--measure");
  const verifiedAt = args.indexOf("--verified");
  const verified = verifiedAt >= 0 ? args[verifiedAt + 1] : undefined;
  const before = (measureAt >= 0 ? args.slice(0, measureAt) : args).filter((a, i) => !(verifiedAt >= 0 && i === verifiedAt + 1));
  const positional = before.filter((a) => !a.startsWith("--"));
  const flags = before.filter((a) => a.startsWith("--") && a !== "--check" && a !== "--verified");
  if (flags.length > 0) fail(`unknown option ${flags[0]}; ${USAGE}`, 2);
  if (positional.length > 1) fail(`one dataset folder, not also ${positional[1]}; ${USAGE}`, 2);
  if (verifiedAt >= 0 && (!verified || verified.startsWith("--"))) fail(`--verified needs a folder; ${USAGE}`, 2);
  if (measureAt >= 0 && args.length === measureAt + 1) fail(`--measure needs task IDs; ${USAGE}`, 2);
  const dir = resolve(positional[0] ?? "datasets/debian");
  if (measureAt >= 0) await measure(dir, args.slice(measureAt + 1), verified);
  const text = renderCards(dir);
  const readme = join(dir, "README.md");
  if (check) {
    const current = existsSync(readme) ? readFileSync(readme, "utf8") : "";
    if (current !== text) fail(`${readme} is not what the configs give; run bun scripts/dataset-cards.ts ${positional[0] ?? "datasets/debian"}`);
    console.log(`${readme}: the cards match the configs`);
  } else {
    writeFileSync(readme, text);
    console.log(`wrote ${readme} with ${taskIds(dir).length} cards`);
  }
}
