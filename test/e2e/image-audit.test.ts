/**
 * The image is audited, not trusted (issue 9 item 7), on a real engine: the demo's htmlesc task
 * rebuilt as a leaky case image (the source in a subfolder of a clone whose history holds the fix,
 * and a world-writable /usr/local/bin). A hostile agent reads the clone's history and plants a `cc`
 * there that would apply the fix during the grading build; both fail. `dataset verify` names
 * both leaks, one line each.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { TaskVerdict } from "../../src/run/verify/verify.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_200_000);
const work = tempDir("ssebench-e2e-audit-");
const SOURCE = "/src/clone/htmlesc";

/** The hostile agent: reads the parent clone's log, plants /usr/local/bin/cc that applies the fix. */
function planterCmd(): string {
  const fix = Buffer.from(readFileSync(join(demoDir, DEMO_TASK, "sse", "diffs", "patch.diff"))).toString("base64");
  const cc = `#!/bin/sh\ngit apply /usr/local/bin/fix.diff 2>/dev/null\nexec /usr/bin/cc "$@"\n`;
  const script = [
    `git -C .. log --all --oneline > "$SSE_ARCHIVE/parent-log" 2>&1`,
    `if echo ${fix} | base64 -d > /usr/local/bin/fix.diff && printf '%s' '${cc}' > /usr/local/bin/cc && chmod +x /usr/local/bin/cc; then echo planted; else echo refused; fi > "$SSE_ARCHIVE/planted"`,
    "exit 0",
  ].join("\n");
  return JSON.stringify(["sh", "-c", script]);
}

const home = homeWithAgents({ planter: planterCmd() });
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
afterAll(() => {
  work.cleanup();
  home.cleanup();
});

function leakyDataset(): string {
  const dir = join(work.path, "leaky");
  mkdirSync(dir);
  cpSync(join(demoDir, "dataset.yaml"), join(dir, "dataset.yaml"));
  const task = join(dir, DEMO_TASK);
  cpSync(join(demoDir, DEMO_TASK), task, { recursive: true });
  const dockerfile = readFileSync(join(task, "Dockerfile"), "utf8")
    .replace("COPY src /src/htmlesc", `COPY src ${SOURCE}`)
    .replace("RUN cd /src/htmlesc \\", "RUN cd /src/clone \\")
    .replace('commit -qm "htmlesc 0.3.1"', 'commit -qm "htmlesc 0.3.1" && git -c user.name=u -c user.email=u@example.invalid commit -q --allow-empty -m "FIX-COMMIT upstream fix"');
  writeFileSync(join(task, "Dockerfile"), `${dockerfile}RUN chmod 0777 /usr/local/bin\n`);
  const config = join(task, "sse", "config.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("source: /src/htmlesc", `source: ${SOURCE}`));
  return dir;
}

describe.skipIf(!E2E)(`a leaky case image on a real engine${SKIP_REASON}`, () => {
  const dataset = leakyDataset();

  test("hostile agent: the parent clone's history is gone and the PATH folder is not writable, so the planted cc never runs", async () => {
    const results = join(work.path, "results");
    const r = await ssebench(["run", "--local", dataset, "--task", DEMO_TASK, "--agent", "planter", "--results", results, "--run-id", "planter-1", "--timeout", "600"], { env });
    if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
    const runDir = join(results, DEMO_TASK, "none", "planter", "planter-1");
    expect(readFileSync(join(runDir, "archive", "planted"), "utf8")).toBe("refused\n");
    expect(readFileSync(join(runDir, "archive", "parent-log"), "utf8")).not.toContain("FIX-COMMIT");
    expect(readFileSync(join(runDir, "final.patch"), "utf8")).toBe("");
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, error_type: null });
  });

  test("dataset verify reports each leak of the case image on its own line and fails the task", async () => {
    const output = join(work.path, "verify");
    const r = await ssebench(["dataset", "verify", DEMO_TASK, "--dir", dataset, "--output", output, "--timeout", "600"], { env });
    expect(r.exitCode).toBe(1);
    const verdict = readJson<TaskVerdict>(join(output, "tasks", `${DEMO_TASK}.json`));
    expect(verdict.failures).toEqual([]); // the reference passes, the dummy's PoC triggers: only the leaks fail it
    expect(verdict.leaks).toEqual([
      `/src/clone/.git: version-control metadata of a repository that holds the source ${SOURCE} (its history can hold the fix)`,
      "/usr/local/bin: world-writable (the agent could plant a file there that grading runs)",
    ]);
    const lines = r.stderr.split("\n");
    for (const leak of verdict.leaks) expect(lines).toContain(`${DEMO_TASK}: case image leak: ${leak}`);
    expect(r.stdout).toContain(`FAILED: case image leak: ${verdict.leaks[0]}`);
  });
});
