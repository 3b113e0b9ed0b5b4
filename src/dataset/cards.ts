/**
 * `ssebench dataset cards`: the per-task cards of a dataset whose tasks pin upstream sources
 * (datasets/debian), generated into its README.md from each task's upstream/sources.yaml and
 * sse/config.yaml and the dataset's measurements.json, so the cards cannot drift from the configs.
 * The measurements come from scripts/dev/measure-tasks.ts (a build without layer cache, the image
 * size, a `dataset verify`).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { UserError } from "../errors.ts";
import { cardsMessages as m } from "./messages.ts";
import type { VerifiedRecord } from "../formats/verified/verified.ts";

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

export interface Measurement {
  build_seconds: number;
  image_mb: number;
  verify_seconds: number;
  measured: string;
}

export const MEASUREMENTS = "measurements.json";

/** A YAML or JSON file as data, or one line naming the file and the first problem. */
export function readData(file: string, parseText: (text: string) => unknown): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseText(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new UserError(m.fileProblem(file, (cause instanceof Error ? cause.message : String(cause)).split("\n")[0] as string));
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new UserError(m.notAMapping(file));
  return data as Record<string, unknown>;
}

function readCard(dir: string, id: string): Card {
  const sourcesFile = join(dir, id, "upstream", "sources.yaml");
  const configFile = join(dir, id, "sse", "config.yaml");
  if (!existsSync(sourcesFile)) throw new UserError(m.sourcesMissing(sourcesFile));
  const sources = readData(sourcesFile, parse);
  const config = readData(configFile, parse);
  for (const key of ["package", "version", "cve", "cwe", "left_out", "poc", "tests"]) {
    if (typeof sources[key] !== "string" || !(sources[key] as string).trim()) throw new UserError(m.notAString(sourcesFile, key));
  }
  // Every task of this dataset has both days (the format alone lets a file that only pins go without).
  for (const key of ["published", "fixed"]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(sources[key] ?? ""))) throw new UserError(m.notADate(sourcesFile, key));
  }
  if (!/^CVE-\d{4}-\d{4,}$/.test(sources.cve as string)) throw new UserError(m.badCve(sourcesFile));
  if (!/^CWE-\d+$/.test(sources.cwe as string)) throw new UserError(m.badCwe(sourcesFile));
  if (sources.tests !== "upstream" && sources.tests !== "here") throw new UserError(m.badTests(sourcesFile));
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

/** The task folders of a dataset folder, sorted. */
export function taskIds(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(m.notADatasetFolder(dir));
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
}

export function readMeasurements(dir: string): Record<string, Measurement> {
  const file = join(dir, MEASUREMENTS);
  return existsSync(file) ? (readData(file, JSON.parse) as unknown as Record<string, Measurement>) : {};
}

/** The verification records of the dataset (verified.json), by task; none when it has no such file. */
export function readVerified(dir: string): Record<string, VerifiedRecord> {
  const file = join(dir, "verified.json");
  if (!existsSync(file)) return {};
  const data = readData(file, JSON.parse);
  const { verifiedProblems } = require("../formats/verified/verified.ts") as typeof import("../formats/verified/verified.ts");
  const problem = verifiedProblems(data)[0];
  if (problem) throw new UserError(m.fileProblem(file, problem));
  return (data as { records: Record<string, VerifiedRecord> }).records;
}

const cell = (s: string) => s.replaceAll("|", "\\|");
const seconds = (m: Measurement | undefined, key: "build_seconds" | "verify_seconds") => (m ? `${Math.round(m[key])} s` : "not measured");
/** One verify's seconds: the task's verification record's, else the measured one. */
const verifySeconds = (r: VerifiedRecord | undefined, m: Measurement | undefined) => (r ? `${Math.round(r.seconds)} s` : seconds(m, "verify_seconds"));
const verifiedWhen = (r: VerifiedRecord | undefined, m: Measurement | undefined) =>
  r ? ` (the mean of ${r.repeats} agreeing ${r.repeats === 1 ? "verify" : "verifies"}, recorded ${r.recorded.slice(0, 10)})` : m ? ` (measured ${m.measured})` : "";
const size = (m: Measurement | undefined) => (m ? `${(m.image_mb / 1000).toFixed(2)} GB` : "not measured");

export function renderCards(dir: string): string {
  const cards = taskIds(dir).map((id) => readCard(dir, id));
  const measured = readMeasurements(dir);
  const verified = readVerified(dir);
  const version = String(readData(join(dir, "dataset.yaml"), parse).version ?? "");
  const out: string[] = [
    `# The Debian dataset (${version})`,
    "",
    "<!-- Generated by `ssebench dataset cards` from each task's upstream/sources.yaml and sse/config.yaml",
    `     and ${MEASUREMENTS} and verified.json; CI checks it (--check). Do not edit by hand. -->`,
    "",
    "Real vulnerabilities fixed in Debian 12 (bookworm) and 13 (trixie) security and point updates. Each",
    "task's tree is the Debian source package at the pinned version with every patch of its series applied",
    "except the fix the task is about (and without `debian/`); the reference patch is that fix's code; the",
    "PoC and the issue text were written here. The sources are fetched from Debian's archive on the host,",
    "checked by sha256, and never stored in this repository (docs/dataset-debian.md).",
    "",
    "Times were measured on the development machine (2 shared cores): a case-image build without the",
    "layer cache, and `ssebench dataset verify` of the task (reference and dummy agent, every check, the",
    "leak audit), from the task's verification record in verified.json (of a `verify --repeat N`, the mean",
    "of the N). The cores are shared with other builds and verifies, and a verify's time grows with the",
    "load: compare tasks verified on the same day (docs/dataset-debian.md).",
    "",
    "Published is the day the CVE was published; Fixed, the day of the Debian update that fixed it.",
    "",
    "| Task | CVE | Published | Fixed | Project | Class | Build | Image | Verify |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const c of cards) {
    const m = measured[c.id];
    out.push(`| [${c.id}](#${c.id}) | ${c.cve} | ${c.published} | ${c.fixed} | ${cell(c.project)} | ${c.cwe} | ${seconds(m, "build_seconds")} | ${size(m)} | ${verifySeconds(verified[c.id], m)} |`);
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
      `| Verify time | ${verifySeconds(verified[c.id], m)}${verifiedWhen(verified[c.id], m)} |`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** Writes DIR/README.md, or with `check` compares it; returns the line to print (a drift is a UserError). */
export function writeCards(dir: string, given: string, check: boolean): string {
  const text = renderCards(dir);
  const readme = join(dir, "README.md");
  if (check) {
    const current = existsSync(readme) ? readFileSync(readme, "utf8") : "";
    if (current !== text) throw new UserError(m.outOfDate(readme, given));
    return m.upToDate(readme);
  }
  writeFileSync(readme, text);
  return m.wrote(readme, taskIds(dir).length);
}
