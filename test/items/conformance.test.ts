/**
 * The reference's example documents (../shared/conformance/item-datasets, read in place, never
 * copied): each loads through the compiled binary with the warnings the spec predicts, validates,
 * and the mmlu jsonl example gives exactly the two items the spec derives. Skipped, with a printed
 * reason, when ../shared is not beside the checkout.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, ssebench } from "../helpers/cli.ts";

const root = join(repoRoot, "../shared/conformance/item-datasets");
const present = existsSync(root);
if (!present) console.log(`conformance(items): skipped: ${root} does not exist (CI puts ../shared beside the checkout)`);

const examples: { file: string; items: number; warnings: string[] }[] = [
  { file: "docs/schemas/examples/datasets/mmlu-pro-jsonl.yaml", items: 2, warnings: [] },
  { file: "library-samples/datasets/trip-planner/smoke.yaml", items: 1, warnings: [] },
  { file: "library-samples/datasets/qa-mas/dataset.yaml", items: 1, warnings: [] },
  { file: "library-samples/datasets/trip-planner/tutorial-queries.yaml", items: 3, warnings: ["dataset.role_list_user"] },
  { file: "docs/tutorials/01-building-an-agent/experiments/memory-provenance/dataset.yaml", items: 1, warnings: [] },
  { file: "docs/tutorials/03-experiments-and-analysis/dataset.yaml", items: 2, warnings: [] },
];

describe.skipIf(!present)("conformance: item-dataset examples", () => {
  test("dataset items on the mmlu jsonl example equals the two items the spec derives", async () => {
    const r = await ssebench(["dataset", "items", join(root, "docs/schemas/examples/datasets/mmlu-pro-jsonl.yaml")]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      `${JSON.stringify({ id: "q1", inputs: { user: "What is 2+2?\nA. 3\nB. 4\nC. 5\nD. 6" }, expectations: { ground_truth: 1 }, category: "math" })}\n` +
        `${JSON.stringify({ id: "q2", inputs: { user: "Capital of France?\nA. London\nB. Berlin\nC. Paris\nD. Madrid" }, expectations: { ground_truth: 2 }, category: "geography" })}\n`,
    );
  });

  for (const { file, items, warnings } of examples) {
    test(`${file}: loads ${items} item(s) with warnings [${warnings.join(", ")}] and validates`, async () => {
      const path = join(root, file);
      const loaded = await ssebench(["dataset", "items", path]);
      expect(loaded.exitCode).toBe(0);
      expect(loaded.stdout.trim().split("\n")).toHaveLength(items);
      const codes = loaded.stderr.split("\n").filter(Boolean).map((l) => /^Deprecated: (\S+) in /.exec(l)?.[1]);
      expect(codes).toEqual(warnings);
      const valid = await ssebench(["dataset", "validate", path]);
      expect(valid.exitCode).toBe(0);
      expect(valid.stdout).toBe(`${path}: ok, item dataset, ${items} item${items === 1 ? "" : "s"}\n`);
    });
  }

  test("tutorial-queries: integer ids become strings, role lists become plain prompts", async () => {
    const r = await ssebench(["dataset", "items", join(root, "library-samples/datasets/trip-planner/tutorial-queries.yaml")]);
    expect(JSON.parse(r.stdout.split("\n")[0] ?? "")).toEqual({ id: "1", inputs: { user: "What trains run from Celestia to Verdantia?" } });
  });

  test("mmlu-pro.yaml (huggingface) validates without the hub and loads from a stub of it", async () => {
    const path = join(root, "docs/schemas/examples/datasets/mmlu-pro.yaml");
    const valid = await ssebench(["dataset", "validate", path]);
    expect(valid.exitCode).toBe(0);
    const rows = [{ question_id: 70, question: "Q?", options: ["a", "b"], answer_index: 1, category: "law" }];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      development: false,
      fetch: (req) => {
        const url = new URL(req.url);
        if (url.pathname === "/splits") return Response.json({ splits: [{ config: "default", split: "validation" }] });
        return Response.json({ rows: rows.map((row, i) => ({ row_idx: i, row })), num_rows_total: 1 });
      },
    });
    try {
      const r = await ssebench(["dataset", "items", path], { env: { SSEBENCH_HF_DATASETS_SERVER: `http://127.0.0.1:${server.port}` } });
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ id: "70", inputs: { user: "Q?\nA. a\nB. b" }, expectations: { ground_truth: 1 }, category: "law" });
    } finally {
      server.stop(true);
    }
  });
});
