/** Crash report texts come from the task folder only when the file is the one the manifest lists. */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { readReportTexts, REPORT_LIMIT_BYTES } from "../../src/catalog/report-texts.ts";
import type { ManifestTask } from "../../src/formats/manifest/manifest-types.ts";
import { tempDir } from "../helpers/cli.ts";
import { demoManifest } from "./fixtures.ts";

const sha = (text: string) => Bun.CryptoHasher.hash("sha256", text, "hex") as string;

test("reads listed reports with matching digests; skips drifted, unlisted, escaping and linked ones; cuts big ones", async () => {
  const tmp = tempDir("ssebench-report-texts-");
  try {
    const [task] = demoManifest().tasks as [ManifestTask];
    const dir = `${tmp.path}/${task.id}/sse/reports`;
    mkdirSync(dir, { recursive: true });
    const big = "x".repeat(REPORT_LIMIT_BYTES + 10);
    for (const [name, text] of [["ok.txt", "ASAN report"], ["drift.txt", "changed"], ["big.txt", big], ["unlisted.txt", "?"]]) writeFileSync(`${dir}/${name}`, text as string);
    writeFileSync(`${tmp.path}/secret`, "secret");
    symlinkSync(`${tmp.path}/secret`, `${dir}/link.txt`);
    task.metadata.task_description.crash_report = ["reports/ok.txt", "reports/drift.txt", "reports/big.txt", "reports/unlisted.txt", "../../secret", "reports/link.txt"];
    task.files = {
      "sse/reports/ok.txt": sha("ASAN report"),
      "sse/reports/drift.txt": sha("original"),
      "sse/reports/big.txt": sha(big),
      "sse/reports/link.txt": sha("secret"),
    };
    const texts = await readReportTexts([task], tmp.path);
    expect([...(texts.get(task.id) ?? new Map())]).toEqual([
      ["reports/ok.txt", "ASAN report"],
      ["reports/big.txt", `${"x".repeat(REPORT_LIMIT_BYTES)}\n[… cut at 256 KiB]`],
    ]);
    // A task without a files map trusts its folder (still nothing outside sse/, no links).
    task.files = null;
    const trusted = await readReportTexts([task], tmp.path);
    expect([...(trusted.get(task.id)?.keys() ?? [])]).toEqual(["reports/ok.txt", "reports/drift.txt", "reports/big.txt", "reports/unlisted.txt"]);
  } finally {
    tmp.cleanup();
  }
});
