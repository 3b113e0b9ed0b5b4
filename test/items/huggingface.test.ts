/**
 * kind: huggingface against a local stub of the dataset-viewer API (Bun.serve on 127.0.0.1):
 * no hub is reachable here, and the stub records every request so paging and parameters can be
 * checked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadError, loadText } from "./helpers.ts";

const rows = Array.from({ length: 250 }, (_, i) => ({
  question_id: `q${i}`,
  question: `Question ${i}?`,
  options: ["yes", "no"],
  answer_index: i % 2,
  category: i < 125 ? "a" : "b",
}));
const requests: URL[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    development: false,
    fetch(request) {
      const url = new URL(request.url);
      requests.push(url);
      if (url.searchParams.get("dataset") !== "Org/Set") return Response.json({ error: "not found" }, { status: 404 });
      if (url.pathname === "/splits") return Response.json({ splits: [{ dataset: "Org/Set", config: "main", split: "validation" }] });
      if (url.pathname === "/rows") {
        const offset = Number(url.searchParams.get("offset"));
        const length = Number(url.searchParams.get("length"));
        const page = rows.slice(offset, offset + length).map((row, i) => ({ row_idx: offset + i, row, truncated_cells: [] }));
        return Response.json({ features: [], rows: page, num_rows_total: rows.length, num_rows_per_page: 100, partial: false });
      }
      return new Response("no", { status: 404 });
    },
  });
  process.env.SSEBENCH_HF_DATASETS_SERVER = `http://127.0.0.1:${server.port}`;
});

afterAll(() => {
  delete process.env.SSEBENCH_HF_DATASETS_SERVER;
  server.stop(true);
});

const dataset = (source: string) =>
  `apiVersion: lab/v1\nkind: Dataset\nmetadata: {name: hub}\nspec:\n  source:\n    kind: huggingface\n${source}    map:\n      id: question_id\n      inputs.user: "{question}\\n{options_text}"\n      expectations.ground_truth: answer_index\n      category: category\n`;

describe("spec.source kind huggingface (dataset-viewer rows API)", () => {
  test("finds the config, pages by 100, stops at the limit", async () => {
    requests.length = 0;
    const { items } = await loadText(dataset("    id: Org/Set\n    split: validation\n    limit: 150\n"));
    expect(items).toHaveLength(150);
    expect(items[0]).toEqual({ id: "q0", inputs: { user: "Question 0?\nA. yes\nB. no" }, expectations: { ground_truth: 0 }, category: "a" });
    expect(items[149]?.id).toBe("q149");
    expect(requests.map((u) => `${u.pathname}?${u.searchParams}`)).toEqual([
      "/splits?dataset=Org%2FSet",
      "/rows?dataset=Org%2FSet&config=main&split=validation&offset=0&length=100",
      "/rows?dataset=Org%2FSet&config=main&split=validation&offset=100&length=50",
    ]);
  });

  test("a given config skips /splits; a split slice sets offset and end; the split defaults to validation", async () => {
    requests.length = 0;
    const { items } = await loadText(dataset("    id: Org/Set\n    config: main\n    split: 'validation[240:245]'\n"));
    expect(items.map((i) => i.id)).toEqual(["q240", "q241", "q242", "q243", "q244"]);
    expect(requests.map((u) => u.pathname)).toEqual(["/rows"]);
    requests.length = 0;
    expect((await loadText(dataset("    id: Org/Set\n    name: main\n"))).items).toHaveLength(250);
    expect(requests[0]?.searchParams.get("split")).toBe("validation");
  });

  test("errors: no id, an HTTP failure, a percent slice", async () => {
    expect(await loadError(dataset("    split: validation\n"))).toEndWith("huggingface source needs id (e.g. TIGER-Lab/MMLU-Pro)");
    expect(await loadError(dataset("    id: Other/Set\n    config: c\n"))).toMatch(
      /huggingface rows: GET http:\/\/127\.0\.0\.1:\d+\/rows\?dataset=Other%2FSet&config=c&split=validation&offset=0&length=100 failed: HTTP 404 \{"error":"not found"\}$/,
    );
    expect(await loadError(dataset("    id: Org/Set\n    split: 'train[:10%]'\n"))).toEndWith(
      "huggingface split 'train[:10%]': only absolute slices like 'validation[:8]' or 'validation[10:20]' are supported",
    );
  });
});
