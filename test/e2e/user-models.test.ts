/**
 * A user's own models with the binary alone (issue 29 item 3): dist/ssebench and its entrypoint
 * copied into an empty folder, run from another with a fresh HOME and no checkout on the way (the
 * home is the one the binary carries), the real claude-code CLI on the demo task against a model
 * from `--models DIR` — a scripted model (the offline stand-in for an upstream) that is not among
 * the built-in ones. A model file of that folder that does not load is one line naming it. The
 * ledger and summary.json record the model each answer named (provenance).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { entrypointBin, repoRoot, runBinary, ssebenchBin, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const tmp = tempDir("ssebench-e2e-user-models-");
afterAll(() => tmp.cleanup());

describe.skipIf(!E2E)(`a model from --models DIR with the binary alone${SKIP_REASON}`, () => {
  test("claude-code on the demo task with the folder's scripted model: passed; a broken model file of the folder is one line", async () => {
    const bin = join(tmp.path, "bin");
    mkdirSync(bin);
    copyFileSync(ssebenchBin, join(bin, "ssebench"));
    copyFileSync(entrypointBin, join(bin, "ssebench-entrypoint"));
    Bun.spawnSync(["chmod", "755", join(bin, "ssebench"), join(bin, "ssebench-entrypoint")]);
    // The user's folder: a model named as no built-in one, its script beside it.
    const models = join(tmp.path, "my-models");
    mkdirSync(join(models, "scripts"), { recursive: true });
    const fixtures = join(import.meta.dir, "fixtures", "agent-models");
    writeFileSync(join(models, "my-scripted.yaml"), "name: my-scripted\nprovider: scripted\nwires: [anthropic]\nprice: {input: 3, output: 15}\nscript: scripts/fix.yaml\n");
    copyFileSync(join(fixtures, "fixture-scripts", "fix.yaml"), join(models, "scripts", "fix.yaml"));
    writeFileSync(join(models, "broken.yaml"), "name: broken\nprovider: other\nwires: [chat]\nprice: {input: 0, output: 0}\n");
    const cwd = join(tmp.path, "work");
    mkdirSync(cwd);
    const results = join(cwd, "results");
    const env = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: join(tmp.path, "home"), DOCKER_HOST: process.env.DOCKER_HOST };
    const run = (model: string) =>
      runBinary(join(bin, "ssebench"), ["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", "claude-code", "--model", model, "--models", models, "--results", results, "--run-id", `user-${model}`, "--timeout", "600"], { cwd, env });

    const bad = await run("broken");
    expect([bad.exitCode, bad.stdout, bad.stderr]).toEqual([1, "", `${join(models, "broken.yaml")}: upstream_model: required with provider: other\n`]);

    const r = await run("my-scripted");
    expect(r.stderr).not.toContain(repoRoot);
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dir = join(results, DEMO_TASK, "my-scripted", "claude-code", "user-my-scripted");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.config.model).toBe("my-scripted");
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.length).toBeGreaterThanOrEqual(4);
    expect(ledger.every((c) => c.status === 200 && c.model === "my-scripted")).toBe(true);
    // Provenance: every answer names the model that gave it; a scripted model has no upstream_model to differ from.
    expect(ledger.filter((c) => c.wire === "anthropic").every((c) => c.answered_model === "my-scripted")).toBe(true);
    expect(summary.provenance.model).toEqual({ name: "my-scripted", upstream_model: null, answered: ["my-scripted"], mismatch: false });
  });
});
