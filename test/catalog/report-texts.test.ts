/** Crash report texts come from the task folder only when the file is the one the manifest lists and lies inside the dataset folder. */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { readReportTexts, REPORT_LIMIT_BYTES } from "../../src/catalog/report-texts.ts";
import type { ManifestTask } from "../../src/formats/manifest/manifest-types.ts";
import { tempDir } from "../helpers/cli.ts";
import { demoManifest } from "./fixtures.ts";

const sha = (text: string) => Bun.CryptoHasher.hash("sha256", text, "hex") as string;

test("reads listed reports with matching digests; skips drifted, unlisted, escaping ones and links out of the dataset; cuts big ones", async () => {
  const tmp = tempDir("ssebench-report-texts-");
  const outside = tempDir("ssebench-report-texts-outside-");
  try {
    const [task] = demoManifest().tasks as [ManifestTask];
    const dir = `${tmp.path}/${task.id}/sse/reports`;
    mkdirSync(dir, { recursive: true });
    const big = "x".repeat(REPORT_LIMIT_BYTES + 10);
    for (const [name, text] of [["ok.txt", "ASAN report"], ["drift.txt", "changed"], ["big.txt", big], ["unlisted.txt", "?"]]) writeFileSync(`${dir}/${name}`, text as string);
    writeFileSync(`${outside.path}/secret`, "secret");
    symlinkSync(`${outside.path}/secret`, `${dir}/link.txt`);
    writeFileSync(`${tmp.path}/shared.txt`, "shared");
    symlinkSync("../../../shared.txt", `${dir}/inside.txt`);
    task.metadata.task_description.crash_report = ["reports/ok.txt", "reports/drift.txt", "reports/big.txt", "reports/unlisted.txt", "../../secret", "reports/link.txt", "reports/inside.txt"];
    task.files = {
      "sse/reports/ok.txt": sha("ASAN report"),
      "sse/reports/drift.txt": sha("original"),
      "sse/reports/big.txt": sha(big),
      "sse/reports/link.txt": sha("secret"),
      "sse/reports/inside.txt": sha("shared"),
    };
    const texts = await readReportTexts([task], tmp.path);
    expect([...(texts.get(task.id) ?? new Map())]).toEqual([
      ["reports/ok.txt", "ASAN report"],
      ["reports/big.txt", `${"x".repeat(REPORT_LIMIT_BYTES)}\n[… cut at 256 KiB]`],
      ["reports/inside.txt", "shared"],
    ]);
    // A task without a files map trusts its folder (still nothing outside sse/ or the dataset folder).
    task.files = null;
    const trusted = await readReportTexts([task], tmp.path);
    expect([...(trusted.get(task.id)?.keys() ?? [])]).toEqual(["reports/ok.txt", "reports/drift.txt", "reports/big.txt", "reports/unlisted.txt", "reports/inside.txt"]);
  } finally {
    tmp.cleanup();
    outside.cleanup();
  }
});
