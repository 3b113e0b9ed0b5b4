/**
 * What the `dataset items` and `dataset validate FILE.yaml` commands do with item datasets,
 * behind the thin command files (which import this lazily).
 */
import { ExitCode, usageError } from "../errors.ts";
import { err, out } from "../output/terminal.ts";
import { openDataset, readYamlFile, type SourceOverride } from "./dataset.ts";
import type { EnvelopeItem } from "./item.ts";
import { msg } from "./messages.ts";
import { orderedKeys } from "../formats/compat/key-order.ts";
import { isMapping, isNumber } from "./python.ts";
import { pythonJsonNumber } from "./run-hash.ts";
import { fail } from "./refs.ts";
import { validateItemDataset } from "./validate.ts";

export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw usageError(`ssebench dataset items: --limit must be a whole number >= 1 (got '${text}')`);
  return Number(text);
}

function loadOverride(file: string): SourceOverride {
  const doc = readYamlFile(file);
  if (!isMapping(doc.value)) fail(doc.at([]), msg.overrideNotMapping());
  return { value: doc.value, file: doc };
}

/**
 * Above this resident size a full collection runs: JSC otherwise lets garbage from large rows pile
 * up well past the live data (measured: 280 MB RSS for a 220 MB source vs 160 MB with the cap).
 */
const rssCap = 160 * 1024 * 1024;

/**
 * Writes text to stdout, waiting for the pipe to drain (memory stays bounded). A reader that goes
 * away (`| head`) ends the output quietly: `closed` turns true and further text is dropped. (Bun's
 * FileSink reported every pending chunk of a closed pipe as its own unhandled EPIPE.)
 */
function stdoutWriter() {
  const stream = process.stdout;
  let closed = false;
  let pending = "";
  let sinceGc = 0;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  const drained = () =>
    new Promise<void>((done) => {
      const finish = () => {
        stream.off("drain", finish);
        stream.off("error", finish);
        done();
      };
      stream.on("drain", finish);
      stream.on("error", finish);
    });
  const flush = async () => {
    const text = pending;
    pending = "";
    if (closed || text === "") return;
    if (!stream.write(text) && !closed) await drained();
  };
  return {
    get closed() {
      return closed;
    },
    async write(text: string) {
      if (closed) return;
      pending += text;
      if (pending.length >= 1 << 18) {
        sinceGc += pending.length;
        await flush();
        // At most one collection per 16 MB written: the allocator may keep RSS above the cap.
        if (sinceGc >= 1 << 24 && process.memoryUsage.rss() > rssCap) {
          sinceGc = 0;
          Bun.gc(true);
        }
      }
    },
    async end() {
      await flush();
      // The last chunk must reach the pipe before the process exits.
      if (!closed) await new Promise<void>((done) => stream.write("", () => done()));
    },
  };
}

/**
 * Compact JSON of a value as Python holds it: keys in source order (JS would put integer-like keys
 * first), floats in Python's repr (`4.0`, `-0.0`, `1e+16`), big ints exact. Strings as JSON.stringify
 * writes them (non-ASCII raw).
 */
function compactJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (isNumber(value)) return pythonJsonNumber(value);
  if (Array.isArray(value)) return `[${value.map(compactJson).join(",")}]`;
  if (typeof value === "object" && !(value instanceof Set) && !(value instanceof Uint8Array)) {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of orderedKeys(value)) if (record[key] !== undefined) parts.push(`${JSON.stringify(key)}:${compactJson(record[key])}`);
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** One JSON Lines record in to_dict() order: id, inputs, expectations, then the metadata. */
function envelopeLine(item: EnvelopeItem): string {
  const { id, inputs, expectations, ...metadata } = item;
  let text = `{"id":${compactJson(id)},"inputs":${compactJson(inputs)}`;
  if (expectations !== undefined) text += `,"expectations":${compactJson(expectations)}`;
  const rest = compactJson(metadata);
  return `${text}${rest === "{}" ? "" : `,${rest.slice(1, -1)}`}}\n`;
}

export async function runItems(file: string, options: { limit?: string; sourceOverride?: string }): Promise<number> {
  const limit = parseLimit(options.limit);
  const sourceOverride = options.sourceOverride ? loadOverride(options.sourceOverride) : undefined;
  const dataset = await openDataset(file, { warn: err, ...(sourceOverride ? { sourceOverride } : {}) });
  const stdout = stdoutWriter();
  let count = 0;
  for await (const batch of dataset.batches()) {
    const take = limit === undefined ? batch : batch.slice(0, limit - count);
    count += take.length;
    let text = "";
    for (const item of take) text += envelopeLine(item);
    await stdout.write(text);
    if (count === limit || stdout.closed) break;
  }
  await stdout.end();
  for (const problem of dataset.problems) err(problem);
  return dataset.problems.length > 0 ? ExitCode.failure : ExitCode.ok;
}

export async function runValidate(file: string): Promise<number> {
  const result = await validateItemDataset(file, err);
  for (const problem of result.problems) err(problem);
  if (result.problems.length > 0) return ExitCode.failure;
  out(`${file}: ok, item dataset${result.skipped ? ` (${result.skipped})` : `, ${result.items} item${result.items === 1 ? "" : "s"}`}`);
  return ExitCode.ok;
}
