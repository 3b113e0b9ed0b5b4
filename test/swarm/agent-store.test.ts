/**
 * Agent stores on the two-node test swarm (src/run/backends/swarm-stores.ts): the real claude-code
 * CLI on two demo tasks, each on the worker against the scripted model. Its files reach each node
 * once, in the store's volume (filled through the node's engine, however the trial images come:
 * registry or save | load), and the trials mount it: the CLI runs and calls the model on both
 * tasks; no trial image holds a copy; the second task fills nothing again.
 * Runs with SSEBENCH_E2E=1 SSEBENCH_SWARM=1 and the swarm's variables (`swarm-two-node.sh env`).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, type DialogLine, demoDir, jsonl, readJson } from "../e2e/helpers.ts";
import { dockerAt, leftovers, nodes, nodeWithRole, SKIP, SWARM, swarmEnv } from "./helpers.ts";

setDefaultTimeout(1_800_000);
const results = tempDir("ssebench-swarm-store-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const TASKS = ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"];
const SWARM_FLAGS = ["--backend", "swarm", "--constraint", "node.labels.ssebench.role==runner", "--cpus", "1", "--memory", "2g"];

/** The node's agent stores of claude-code: name → [size, created]. */
function stores(engine: string): Map<string, string> {
  const out = dockerAt(engine, ["volume", "ls", "--filter", "label=ssebench.agent=claude-code", "--filter", "label=ssebench.layer=agent store", "--format", "{{.Name}}"]);
  return new Map(out.split("\n").filter(Boolean).map((name) => [name, dockerAt(engine, ["volume", "inspect", "--format", "{{.CreatedAt}}", name])]));
}

describe.skipIf(!SWARM)(`agent stores on the two-node swarm${SKIP}`, () => {
  test("claude-code on two tasks on the worker: its files reach each node once, in the store's volume, and no trial image holds them", async () => {
    const worker = nodes.get(nodeWithRole("runner")) as string;
    // From nothing: every node's claude-code stores and markers go first, so the run fills them.
    for (const engine of nodes.values()) {
      for (const volume of stores(engine).keys()) dockerAt(engine, ["volume", "rm", volume]);
      dockerAt(engine, ["image", "rm", "ghcr.io/42-b3yond-6ug/ssebench/agent-files/claude-code:2.1.332"]);
    }
    expect(stores(worker).size).toBe(0);
    const seen: Map<string, string>[] = [];
    for (const task of TASKS) {
      const id = `swarm-store-${task}`;
      const r = await ssebench(
        ["run", "--local", demoDir, "--task", task, "--results", results.path, "--timeout", "600", "--agent", "claude-code", "--model", "scripted-give-up", "--run-id", id, ...SWARM_FLAGS],
        { env: swarmEnv(home.path) },
      );
      expect(r.stdout).toContain("Grade: failed");
      const dir = join(results.path, task, "scripted-give-up", "claude-code", id);
      // The CLI ran from the mounted store: it called the model and ended its dialog.
      expect(jsonl<LedgerEntry>(join(dir, "model-calls.jsonl")).filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
      expect(jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl")).at(-1)).toMatchObject({ type: "complete" });
      const image = readJson<Summary>(join(dir, "summary.json")).container.image as string;
      // The agent layer adds no layer to the task's tool layer: its files are in the store.
      const layers = (ref: string) => dockerAt(process.env.DOCKER_HOST ?? "unix:///var/run/docker.sock", ["image", "inspect", "--format", "{{len .RootFS.Layers}}", ref]);
      const tool = `ghcr.io/42-b3yond-6ug/ssebench/tool/${task}:0.1.0`;
      expect(layers(image)).toBe(layers(tool));
      seen.push(stores(worker));
    }
    const [first, second] = seen as [Map<string, string>, Map<string, string>];
    expect(first.size).toBe(1);
    // The second task filled nothing again: the same volume, made once.
    expect([...second.entries()]).toEqual([...first.entries()]);
    const [volume] = [...first.keys()];
    const sizes = dockerAt(worker, ["system", "df", "-v", "--format", "{{json .Volumes}}"]);
    const size = (JSON.parse(sizes) as { Name: string; Size: string }[]).find((v) => v.Name === volume)?.Size;
    expect(size).toMatch(/^40\d\.\dMB$/);
    expect(await leftovers()).toEqual([]);
  });
});
