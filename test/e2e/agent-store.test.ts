/**
 * Agent stores on a real engine (src/run/backends/agent-store.ts, docs/images.md "Agent stores"):
 * the real claude-code CLI in a job of two demo tasks against the scripted model. Its files are on
 * the engine once, in its store's volume, which both trials mount and no job owns (a job's leftover
 * clean-up never takes it); the agent layers hold none of them; `images` lists the store and
 * `images prune` keeps it while removing a store nothing marks.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { readTrials } from "../../src/jobs/store.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, demoDir, docker, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_800_000);
const results = tempDir("ssebench-e2e-store-");
const home = agentModelsHome();
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const UNMARKED = `ssebench-agent-claude-code-e2e${process.pid.toString(16).padStart(14, "0").slice(-14)}`;
afterAll(() => {
  results.cleanup();
  home.cleanup();
  if (E2E) docker(["volume", "rm", "--force", UNMARKED]);
});
const TASKS = ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"];
const MiB = 1024 * 1024;

const labelsOf = (kind: "image" | "volume", ref: string) => JSON.parse(docker([kind, "inspect", "--format", "{{json .Labels}}", ref]) || "null") as Record<string, string> | null;
const labelsOfImage = (ref: string) => JSON.parse(docker(["image", "inspect", "--format", "{{json .Config.Labels}}", ref]) || "null") as Record<string, string>;
const createdAt = (volume: string) => docker(["volume", "inspect", "--format", "{{.CreatedAt}}", volume]);

/** An entry of `ssebench images --json`. */
interface Listed {
  id: string;
  tags: string[];
  kind: string;
  task: string | null;
  size: number;
  unique_size: number;
}

async function claudeImages(): Promise<Listed[]> {
  const r = await ssebench(["images", "--json", "--label", "ssebench.agent=claude-code"], { env });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Listed[];
}

describe.skipIf(!E2E)(`agent stores on a real engine${SKIP_REASON}`, () => {
  test("claude-code in a job of two tasks: one copy of its files, in a store no job owns; the agent layers hold none of it; prune keeps it", async () => {
    const job = ["run", "--local", demoDir, ...TASKS.flatMap((t) => ["--task", t]), "--agent", "claude-code", "--model", "scripted-give-up", "--timeout", "600", "--results", results.path];
    const r = await ssebench([...job, "--job", "store"], { env });
    expect(r.stdout).toContain("Job store: 2 trials: 0 passed, 2 failed, 0 errors");
    const trials = readTrials(join(results.path, "jobs", "store"));
    const volumes = new Set<string>();
    for (const trial of trials) {
      const dir = join(results.path, trial.run_dir as string);
      // The CLI ran from the mounted store: it called the model.
      expect(jsonl<LedgerEntry>(join(dir, "model-calls.jsonl")).filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
      const image = readJson<Summary>(join(dir, "summary.json")).container.image as string;
      volumes.add(labelsOfImage(image)["ssebench.agent-store"] as string);
    }
    // Both trials mounted the same store; it is the agent's, never the job's.
    expect(volumes.size).toBe(1);
    const [volume] = [...volumes] as [string];
    const labels = labelsOf("volume", volume) as Record<string, string>;
    expect(labels).toMatchObject({ "ssebench.agent": "claude-code", "ssebench.layer": "agent store", "ssebench.agent-store": volume });
    expect(Object.keys(labels).filter((k) => k.startsWith("ssebench.job"))).toEqual([]);
    const made = createdAt(volume);

    // The engine's copy: the store holds the CLI (hundreds of MB); each task's agent layer almost nothing of its own.
    const listed = await claudeImages();
    const store = listed.find((i) => i.kind === "agent store" && i.id === volume) as Listed;
    expect(store.size).toBeGreaterThan(100 * MiB);
    for (const task of TASKS) {
      const layer = listed.find((i) => i.kind === "agent layer" && i.task === task && i.tags.some((t) => t.includes("/agent-claude-code/"))) as Listed;
      expect(layer.unique_size).toBeLessThan(16 * MiB);
    }

    // The job's next process removes what the job left on the engine: the store stays, unfilled again.
    const resumed = await ssebench(["run", "--job", "store", "--results", results.path], { env });
    expect(resumed.exitCode).toBe(0);
    expect(createdAt(volume)).toBe(made);

    // prune: a store nothing marks (a fill that died, or an agent version gone) goes; the marked one stays.
    docker(["volume", "create", "--label", "ssebench.layer=agent store", "--label", "ssebench.agent=claude-code", "--label", `ssebench.agent-store=${UNMARKED}`, UNMARKED]);
    const dry = await ssebench(["images", "prune", "--dry-run", "--json", "--label", "ssebench.agent=claude-code"], { env });
    expect(dry.exitCode).toBe(0);
    const names = (JSON.parse(dry.stdout) as Listed[]).map((c) => c.id);
    expect(names).toContain(UNMARKED);
    expect(names).not.toContain(volume);
    const pruned = await ssebench(["images", "prune", "--label", "ssebench.agent-store=" + UNMARKED], { env });
    expect(pruned.exitCode).toBe(0);
    expect(labelsOf("volume", UNMARKED)).toBeNull();
    expect(createdAt(volume)).toBe(made);
  });

  test("a store a trial mounts whose marker was replaced (a files image built under its name): marked again, never refilled", async () => {
    const run = async (id: string) => {
      const r = await ssebench(["run", "--local", demoDir, "--task", TASKS[0] as string, "--agent", "dummy", "--results", results.path, "--run-id", id], { env });
      expect(r.exitCode).toBe(0);
      return readJson<Summary>(join(results.path, TASKS[0] as string, "none", "dummy", id, "summary.json"));
    };
    const first = await run("marker-1");
    const volume = labelsOfImage(first.container.image as string)["ssebench.agent-store"] as string;
    const made = createdAt(volume);
    const marker = `ghcr.io/42-b3yond-6ug/ssebench/agent-files/dummy:1.0.0`;
    // A trial mounts the store (a created container is enough for the engine to keep it)...
    const trial = docker(["container", "create", "--network", "none", "--mount", `type=volume,source=${volume},target=/opt/agent,readonly`, first.container.image as string]);
    try {
      // ...when another image takes the marker's name (a build of ssebench from before stores does).
      docker(["tag", first.container.case_image as string, marker]);
      expect(labelsOfImage(marker)["ssebench.agent-store"]).toBeUndefined();
      await run("marker-2");
      expect(createdAt(volume)).toBe(made);
      expect(labelsOfImage(marker)["ssebench.agent-store"]).toBe(volume);
    } finally {
      docker(["rm", "--force", trial]);
    }
  });
});
