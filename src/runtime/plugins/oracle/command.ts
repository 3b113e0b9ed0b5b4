/**
 * `ssebench-entrypoint oracle` (runtime/plugins/oracle/run.sh), run as root at after-grading: the
 * run's model compares the agent's final.patch with the task's reference patch and reports, and
 * the review goes to $SSE_ARCHIVE/oracle/ (review.txt, review.json, dialog.jsonl). No model → the
 * reference's skip reason, exit 0; a model error or a spent budget → the reason, exit 1. It reads
 * only root's files (results dir, task root) and never touches result.json: the grade stands.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ORACLE_REVIEW, type OracleReview as Review } from "../../../formats/run/oracle-review.ts";
import { noUsage, type Usage } from "../../../formats/models/model-usage.ts";
import { type PluginCommandSettings, pluginCommandSettings } from "../../config.ts";
import { writeAtomic } from "../../fs-util.ts";
import { readTaskConfig } from "../../task.ts";
import { writeOut } from "../../write-out.ts";
import { ask, chooseWire, type Exchange, ModelError, type ModelEndpoint } from "./client.ts";
import { Dialog } from "./dialog.ts";
import { oracleMsg } from "./messages.ts";
import { parseVerdict, type ReviewInputs, SYSTEM_PROMPT, userPrompt } from "./prompt.ts";

type Env = Record<string, string | undefined>;

class Skip extends Error {}

function readInput(what: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new ModelError(oracleMsg.unreadable(what, path, e instanceof Error ? e.message : String(e)));
  }
}

function gradeOf(results: string): string | null {
  try {
    const r = JSON.parse(readFileSync(join(results, "result.json"), "utf8")) as { patch_result?: { status?: unknown } };
    return typeof r.patch_result?.status === "string" ? r.patch_result.status : null;
  } catch {
    return null;
  }
}

async function gatherInputs({ results, taskRoot, work }: PluginCommandSettings): Promise<ReviewInputs> {
  const finalPatch = join(results, "final.patch");
  if (!existsSync(finalPatch)) throw new Skip(oracleMsg.noFinalPatch(finalPatch));
  const candidate = readInput("the agent's patch", finalPatch);
  if (candidate.trim() === "") throw new Skip(oracleMsg.emptyPatch());
  const task = await readTaskConfig(taskRoot, join(work, "state", "cache"));
  if (!task.files.patch) throw new Skip(oracleMsg.noReference());
  const reference = readInput("the reference patch", join(taskRoot, task.files.patch));
  const reports: ReviewInputs["reports"] = [];
  if (task.description.issue) reports.push({ path: "issue", text: task.description.issue });
  if (task.description.bugDescription) reports.push({ path: "bug description", text: task.description.bugDescription });
  for (const p of task.description.crashReports) reports.push({ path: p, text: readInput("the report", join(taskRoot, p)) });
  return { task: `${task.id} (${task.project}, ${task.language})`, reports, reference, candidate };
}

function reviewText(r: Review): string {
  const head = [`Verdict: ${r.verdict ?? "none"}`, `Grade: ${r.grade ?? "unknown"}`, `Model: ${r.model}${r.wire ? ` (${r.wire})` : ""}`];
  if (r.error) head.push(`Error: ${r.error}`);
  return `${head.join("\n")}\n\n${r.reasons}\n`;
}

export async function runOracle(env: Env): Promise<number> {
  const started = performance.now();
  const settings = pluginCommandSettings(env);
  const { results, skipFile } = settings;
  const ep: ModelEndpoint = { baseUrl: settings.model.baseUrl, key: settings.model.key, model: settings.model.name, plugin: settings.pluginName ?? "oracle" };
  const skip = (why: string) => {
    writeOut(1, `${oracleMsg.skipped(why)}\n`);
    if (skipFile) writeFileSync(skipFile, `${why}\n`);
    return 0;
  };
  const out = join(settings.archive, "oracle");
  // The archive was the agent's: whatever it left at this name (a symlink out, a review of its
  // own) is not ours, even when nothing is reviewed.
  rmSync(out, { recursive: true, force: true });
  rmSync(join(results, ORACLE_REVIEW), { force: true });
  if (!ep.baseUrl || !ep.key) return skip(oracleMsg.noModel());
  let inputs: ReviewInputs;
  const review: Review = { status: "failed", verdict: null, reasons: "", grade: gradeOf(results), model: ep.model, wire: null, tokens: noUsage(), cost: null, duration_ms: 0 };
  try {
    inputs = await gatherInputs(settings);
  } catch (e) {
    if (e instanceof Skip) return skip(e.message);
    throw e;
  }
  mkdirSync(out, { recursive: true, mode: 0o755 });
  const dialog = new Dialog(join(out, "dialog.jsonl"));
  dialog.init({ task: inputs.task, cwd: process.cwd(), model: ep.model, agent: "oracle" });
  const prompt = userPrompt(inputs);
  dialog.prompt(`${SYSTEM_PROMPT}\n\n${prompt}`);
  let exchange: Exchange | undefined;
  try {
    review.wire = await chooseWire(ep);
    exchange = await ask(ep, review.wire, SYSTEM_PROMPT, prompt);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    review.error = e.message;
  }
  review.duration_ms = Math.round(performance.now() - started);
  if (exchange) {
    review.tokens = exchange.usage;
    review.cost = exchange.cost;
    dialog.message(exchange.text, exchange.usage);
    const { verdict, reasons } = parseVerdict(exchange.text);
    review.status = "ok";
    review.verdict = verdict ?? "unsure";
    review.reasons = verdict ? reasons : `${oracleMsg.noVerdict()}\n\n${reasons}`;
  }
  dialog.complete(review.status === "ok" ? "success" : "error", review.duration_ms, review.tokens, review.error);
  const json = `${JSON.stringify(review, null, 2)}\n`;
  writeAtomic(join(out, "review.json"), json);
  // The copy `ssebench results` reads: in the results dir, which the agent never reaches.
  writeAtomic(join(results, ORACLE_REVIEW), json);
  writeAtomic(join(out, "review.txt"), reviewText(review));
  if (review.error) {
    writeOut(2, `${oracleMsg.failed(review.error)}\n`);
    return 1;
  }
  writeOut(1, `${oracleMsg.wrote(review.verdict as string, join(out, "review.txt"))}\n`);
  return 0;
}
