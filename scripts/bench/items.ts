/**
 * Benchmark: `ssebench dataset items` materialising a generated 100,000-row MMLU-shaped jsonl source
 * with a template map, against `jq -c` doing the same projection of the same file in the same run
 * (the outputs are compared byte for byte). Reports the median wall time of several runs, the
 * ratio to jq (goal <= 2x) and max RSS; a second file with the same rows padded to ~10x the bytes
 * shows that memory does not follow the size of the source (rows are streamed).
 *
 * Usage: bun run build && bun scripts/bench/items.ts [--rows 100000] [--runs 3]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { rows: { type: "string", default: "100000" }, runs: { type: "string", default: "3" } } });
const rows = Number(values.rows);
const runs = Number(values.runs);
const bin = resolve(import.meta.dir, "../../dist/ssebench");
if (!existsSync(bin)) throw new Error(`${bin} is missing: run 'bun run build' first`);
if (Bun.spawnSync(["sh", "-c", "command -v jq"]).exitCode !== 0) throw new Error("jq is missing: apt-get install jq");
const gnuTime = existsSync("/usr/bin/time");

const dir = mkdtempSync(join(tmpdir(), "bench-items-"));
const categories = ["math", "law", "physics", "history"];

function writeRows(file: string, padding: string): number {
  const chunks: string[] = [];
  let text = "";
  for (let i = 0; i < rows; i++) {
    const options = [0, 1, 2, 3].map((j) => `option ${j} for ${i}`);
    const question = `What is the answer to question number ${i} about topic ${i % 97}?${padding}`;
    text += `${JSON.stringify({ question_id: `q${i}`, question, options, answer_index: i % 4, category: categories[i % 4] })}\n`;
    if (text.length > 1 << 20) {
      chunks.push(text);
      text = "";
    }
  }
  chunks.push(text);
  writeFileSync(file, chunks.join(""));
  return statSync(file).size;
}

const dataset = (rowsFile: string) =>
  `apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: bench}\nspec:\n  source:\n    kind: jsonl\n    path: ${rowsFile}\n    map:\n      id: question_id\n      inputs.user: "{question}\\n{options_text}"\n      expectations.ground_truth: answer_index\n      category: category\n`;
const jqProgram =
  '{id: (.question_id|tostring), inputs: {user: (.question + "\\n" + ([.options | to_entries[] | "\\([65 + .key] | implode). \\(.value)"] | join("\\n")))}, expectations: {ground_truth: .answer_index}, category: .category}';

interface Run {
  seconds: number;
  maxRssMb: number;
}

/** Runs argv with stdout to a file; wall time from here, max RSS from GNU time (or /proc polling). */
async function measure(argv: string[], out: string): Promise<Run> {
  const timeFile = join(dir, "time.txt");
  const full = gnuTime ? ["/usr/bin/time", "-f", "%M", "-o", timeFile, ...argv] : argv;
  const started = performance.now();
  const proc = Bun.spawn(full, { stdout: Bun.file(out), stderr: "inherit" });
  let peakKb = 0;
  const poll = gnuTime
    ? undefined
    : setInterval(() => {
        const status = existsSync(`/proc/${proc.pid}/status`) ? readFileSync(`/proc/${proc.pid}/status`, "utf8") : "";
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      }, 20);
  const code = await proc.exited;
  const seconds = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}`);
  if (gnuTime) peakKb = Number(readFileSync(timeFile, "utf8").trim().split("\n").pop());
  return { seconds, maxRssMb: peakKb / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function compare(label: string, rowsFile: string) {
  const yaml = join(dir, `${label}.yaml`);
  writeFileSync(yaml, dataset(rowsFile));
  const ours: Run[] = [];
  const theirs: Run[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await measure([bin, "dataset", "items", yaml], join(dir, "ours.jsonl")));
    theirs.push(await measure(["jq", "-c", jqProgram, join(dir, rowsFile)], join(dir, "jq.jsonl")));
  }
  const same = Bun.spawnSync(["cmp", "-s", join(dir, "ours.jsonl"), join(dir, "jq.jsonl")]).exitCode === 0;
  if (!same) throw new Error(`${label}: ssebench and jq outputs differ (${dir})`);
  const a = median(ours.map((r) => r.seconds));
  const b = median(theirs.map((r) => r.seconds));
  const rss = (rs: Run[]) => Math.max(...rs.map((r) => r.maxRssMb)).toFixed(0);
  const mb = (statSync(join(dir, rowsFile)).size / 1e6).toFixed(1);
  console.log(`${label}: ${rows} rows, ${mb} MB jsonl, outputs identical`);
  console.log(`  ssebench dataset items  ${a.toFixed(2)} s  max RSS ${rss(ours)} MB`);
  console.log(`  jq -c (same projection) ${b.toFixed(2)} s  max RSS ${rss(theirs)} MB`);
  console.log(`  ratio ssebench/jq       ${(a / b).toFixed(2)}x  (goal <= 2x: ${a / b <= 2 ? "met" : "NOT met"})`);
}

try {
  writeRows(join(dir, "rows.jsonl"), "");
  writeRows(join(dir, "wide.jsonl"), ` ${"x".repeat(2000)}`);
  await compare("rows", "rows.jsonl");
  await compare("wide", "wide.jsonl");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
