/**
 * The Swarm backend against a stand-in manager (its neighbour, the docker CLI): the service argv
 * keeps the local walls and no secret value, names are valid, and the failure rules (rejected,
 * never started, node down) end a trial as a start error; a model's key travels as a secret only.
 * The real swarm is in test/swarm.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MODEL_KEY_FILE, MODEL_PLUGIN_KEY_FILE } from "../../../src/contract/model.ts";
import { CAPABILITIES, type ContainerSpec } from "../../../src/run/backends/container.ts";
import type { Docker, DockerResult } from "../../../src/run/backends/docker.ts";
import { msg } from "../../../src/run/messages.ts";
import { SwarmBackend } from "../../../src/run/backends/swarm.ts";
import { SwarmStores } from "../../../src/run/backends/swarm-stores.ts";
import { jobsCleanUp, networkArgs, parseNodes, relayArgs, serviceArgs, sizeBytes, trialNames } from "../../../src/run/backends/swarm-service.ts";

const spec: ContainerSpec = {
  image: "sha256:abc",
  runDir: "/tmp/r",
  archiveDir: "/tmp/r/archive",
  env: { TIMEOUT: "60", SSE_ARCHIVE: "/tmp/sse-archive" },
  labels: { "ssebench.run-id": "20260101-000000-abcdef", "ssebench.task-id": "t" },
  resources: { cpus: 1.5, memory: "2g", pids_limit: 512, disk: "20g" },
  platform: undefined,
  referencePatch: "/tmp/secret-patch.diff",
  command: ["run-agent", "--x"],
};

/** Answers by the first words of the argv; records every call. */
class FakeManager implements Docker {
  readonly calls: string[][] = [];
  constructor(private readonly answers: Array<[string, (args: readonly string[]) => Partial<DockerResult>]>) {}
  async call(args: readonly string[]): Promise<DockerResult> {
    this.calls.push([...args]);
    const line = args.join(" ");
    const hit = this.answers.find(([prefix]) => line.startsWith(prefix));
    return { code: 0, stdout: "", stderr: "", ...hit?.[1](args) };
  }
}

const task = (status: object, node = "node1") => () => ({ stdout: `${JSON.stringify(status)}\t${node}\n` });
const MANAGER: Array<[string, () => Partial<DockerResult>]> = [
  ["info", () => ({ stdout: "active true 24.0.7 mgr1\n" })],
  ["service ps", () => ({ stdout: "task1\n" })],
];

async function backendWith(answers: Array<[string, (args: readonly string[]) => Partial<DockerResult>]>, env: Record<string, string> = {}) {
  const fake = new FakeManager([...MANAGER, ...answers]);
  const backend = await SwarmBackend.open({ SSEBENCH_SWARM_POLL_MS: "5", SSEBENCH_SWARM_RESULTS: "copy", ...env }, () => {}, ["node.labels.ssebench.role==runner"], () => fake);
  return { backend, fake };
}

describe("swarm service argv", () => {
  test("a one-task job that never restarts, with the local walls, labels and the patch as a root-only secret", () => {
    const names = trialNames("20260101-000000-abcdef");
    const args = serviceArgs({ names, spec, image: spec.image, constraints: ["node.labels.ssebench.role==runner"], withPatch: true, withUpload: true, jobMode: true });
    const after = (flag: string) => args.filter((_, i) => args[i - 1] === flag);
    expect(after("--mode")).toEqual(["replicated-job", "sandbox"]);
    expect(after("--restart-condition")).toEqual(["none"]);
    expect(after("--cap-drop")).toEqual(["ALL"]);
    expect(after("--cap-add")).toEqual([...CAPABILITIES]);
    expect(after("--user")).toEqual(["0:0"]);
    expect(after("--entrypoint")).toEqual(["/usr/local/bin/ssebench-entrypoint"]);
    expect(after("--limit-memory")).toEqual([String(2 * 1024 ** 3)]);
    expect([after("--limit-cpu"), after("--limit-pids")]).toEqual([["1.5"], ["512"]]);
    expect(after("--network")).toEqual([names.network]);
    expect(after("--constraint")).toEqual(["node.labels.ssebench.role==runner"]);
    expect(after("--secret")).toEqual([
      `source=${names.patchSecret},target=reference.patch,uid=0,gid=0,mode=0400`,
      `source=${names.uploadSecret},target=ssebench-upload,uid=0,gid=0,mode=0400`,
    ]);
    expect(after("--env")).toContain("SSE_REFERENCE_PATCH=/run/secrets/reference.patch");
    expect(after("--container-label")).toContain("ssebench.backend=swarm");
    expect(args.includes("--init") && args.includes("--no-resolve-image")).toBe(true);
    // The patch travels as a secret: its host path is in no argument of the service.
    expect(args.some((a) => a.includes("/tmp/secret-patch.diff"))).toBe(false);
    expect(args.slice(args.indexOf("sha256:abc"))).toEqual(["sha256:abc", "--mode", "sandbox", "--", "run-agent", "--x"]);
  });

  test("the agent store: the node's volume of the same name, read-only at /opt/agent, never filled from the image", () => {
    const args = serviceArgs({ names: trialNames("r"), spec: { ...spec, agentStore: "ssebench-agent-a-0123456789abcdef" }, image: spec.image, constraints: [], withPatch: false, withUpload: false, jobMode: true });
    expect(args.filter((_, i) => args[i - 1] === "--mount")).toEqual(["type=volume,source=ssebench-agent-a-0123456789abcdef,target=/opt/agent,readonly,volume-nocopy"]);
    expect(serviceArgs({ names: trialNames("r"), spec, image: spec.image, constraints: [], withPatch: false, withUpload: false, jobMode: true })).not.toContain("--mount");
  });

  test("agent stores are filled through the nodes' engines: without listed nodes the run says so", async () => {
    const stores = new SwarmStores({}, new Map(), () => undefined as never, undefined as never);
    await expect(stores.prepare({ agent: "a", volume: "ssebench-agent-a-0123456789abcdef", markerId: "sha256:m", markerTag: "agent-files/a:1" })).rejects.toThrow(
      "--backend swarm: the agent's files are kept once per node in the volume ssebench-agent-a-0123456789abcdef, filled through each node's engine; name them in SSEBENCH_SWARM_NODES (NODE-ID=ENGINE,…; docs/backends.md)",
    );
  });

  test("engines before 24 get one replica that never restarts instead of a replicated job (whose removal leaks there)", () => {
    const args = serviceArgs({ names: trialNames("r"), spec, image: spec.image, constraints: [], withPatch: false, withUpload: false, jobMode: false });
    expect(args.slice(args.indexOf("--mode"), args.indexOf("--mode") + 6)).toEqual(["--mode", "replicated", "--replicas", "1", "--restart-condition", "none"]);
    expect(args.some((a) => a.startsWith("--secret") || a.startsWith("SSE_REFERENCE_PATCH"))).toBe(false);
    expect([jobsCleanUp("20.10.24+dfsg1"), jobsCleanUp("24.0.7"), jobsCleanUp("27.5.1")]).toEqual([false, true, true]);
  });

  test("the relay: a plain container of the trial's image running the entrypoint's relay, on the trial's network as ssebench-results, walled, the receiver's folder read-only", () => {
    const names = trialNames("r");
    const args = relayArgs({ names, image: "sha256:abc", socketDir: "/tmp/ssebench-results-x", socketName: "results.sock", runId: "r" });
    const after = (flag: string) => args.filter((_, i) => args[i - 1] === flag);
    expect(args.slice(0, 4)).toEqual(["run", "--detach", "--name", names.relay]);
    expect(after("--network")).toEqual([names.network]);
    expect(after("--network-alias")).toEqual(["ssebench-results"]);
    expect(after("--mount")).toEqual(["type=bind,source=/tmp/ssebench-results-x,target=/run/ssebench-results,readonly"]);
    expect(after("--cap-drop")).toEqual(["ALL"]);
    expect(args).not.toContain("--cap-add");
    expect(after("--security-opt")).toEqual(["no-new-privileges"]);
    expect(args).toContain("--read-only");
    expect([after("--cpus"), after("--memory"), after("--memory-swap"), after("--pids-limit")]).toEqual([["0.5"], ["256m"], ["256m"], ["64"]]);
    expect(after("--label")).toEqual(["ssebench.run-id=r", "ssebench.backend=swarm", "ssebench.role=relay"]);
    expect(args.slice(args.indexOf("sha256:abc"))).toEqual(["sha256:abc", "relay", "0.0.0.0:8080", "/run/ssebench-results/results.sock"]);
  });

  test("a job's trial labels its network and relay with the job, and a resume removes what carries it: services, relays, secrets, networks", async () => {
    const names = trialNames("r");
    expect(networkArgs(names, "r", "/res/jobs/j")).toContain("ssebench.job=/res/jobs/j");
    const relay = relayArgs({ names, image: "sha256:abc", socketDir: "/s", socketName: "u.sock", runId: "r", job: "/res/jobs/j" });
    expect(relay.filter((_, i) => relay[i - 1] === "--label")).toEqual(["ssebench.run-id=r", "ssebench.job=/res/jobs/j", "ssebench.backend=swarm", "ssebench.role=relay"]);
    const { backend, fake } = await backendWith([
      ["service ls", () => ({ stdout: "svc1\n" })],
      ["ps --all", () => ({ stdout: "relay1\n" })],
      ["secret ls", () => ({ stdout: "sec1\nsec2\n" })],
      ["network ls", () => ({ stdout: "net1\n" })],
    ]);
    fake.calls.length = 0;
    expect(await backend.removeJobLeftovers("/res/jobs/j")).toEqual({ removed: ["1 service", "1 container", "2 secrets", "1 network"], warnings: [] });
    const filter = ["--quiet", "--filter", "label=ssebench.job=/res/jobs/j"];
    expect(fake.calls).toEqual([
      ["service", "ls", ...filter], ["service", "rm", "svc1"],
      ["ps", "--all", ...filter], ["rm", "--force", "--volumes", "relay1"],
      ["secret", "ls", ...filter], ["secret", "rm", "sec1", "sec2"],
      ["network", "ls", ...filter], ["network", "rm", "net1"],
    ]);
  });

  test("the trial's network is an internal overlay; names are valid Swarm names and differ for long IDs with one prefix", () => {
    const names = trialNames("x".repeat(60) + "_a.b");
    expect(networkArgs(names, "id")).toEqual(["network", "create", "--driver", "overlay", "--internal", "--attachable", "--label", "ssebench.run-id=id", "--label", "ssebench.backend=swarm", names.network]);
    for (const n of Object.values(names)) expect(n).toMatch(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/);
    expect(trialNames("x".repeat(60) + "_a.c").service).not.toBe(names.service);
    expect([sizeBytes("4g"), sizeBytes("512M"), sizeBytes("100")]).toEqual([4 * 1024 ** 3, 512 * 1024 ** 2, 100]);
  });

  test("SSEBENCH_SWARM_NODES: NODE-ID=ENGINE pairs", () => {
    expect(parseNodes("a1=unix:///x.sock,b2=tcp://h:2375")).toEqual(new Map([["a1", "unix:///x.sock"], ["b2", "tcp://h:2375"]]));
    expect(parseNodes(undefined)).toEqual(new Map());
    expect(parseNodes("nodash")).toBeUndefined();
  });
});

describe("swarm backend lifecycle", () => {
  test("an engine that is not a manager is refused with one line; so is a malformed SSEBENCH_SWARM_NODES", async () => {
    const worker = new FakeManager([["info", () => ({ stdout: "active false 20.10.24\n" })]]);
    const open = (env: Record<string, string>) => SwarmBackend.open({ SSEBENCH_SWARM_HOST: "unix:///w.sock", ...env }, () => {}, [], () => worker);
    await expect(open({})).rejects.toThrow(msg.swarmNoManager("unix:///w.sock", "swarm state: active false"));
    await expect(open({ SSEBENCH_SWARM_NODES: "x" })).rejects.toThrow(msg.swarmNodes("x"));
  });

  test("a malformed SSEBENCH_SWARM_REGISTRY or _PULL, or a timing variable that is not a positive number, is refused when the backend opens, named as the variable", async () => {
    for (const name of ["SSEBENCH_SWARM_REGISTRY", "SSEBENCH_SWARM_REGISTRY_PULL"]) {
      const opened = SwarmBackend.open({ [name]: "Not A Registry!" }, () => {}, [], () => new FakeManager(MANAGER));
      await expect(opened).rejects.toThrow(msg.swarmRegistrySetting(name, "Not A Registry!"));
    }
    for (const name of ["SSEBENCH_SWARM_START_TIMEOUT", "SSEBENCH_SWARM_POLL_MS", "SSEBENCH_SWARM_UPLOAD_WAIT"]) {
      for (const value of ["-1", "0", "abc", "Infinity"]) {
        const opened = SwarmBackend.open({ [name]: value }, () => {}, [], () => new FakeManager(MANAGER));
        await expect(opened).rejects.toThrow(msg.swarmNumberSetting(name, value));
      }
    }
    const ok = await SwarmBackend.open({ SSEBENCH_SWARM_REGISTRY: "127.0.0.1:5000", SSEBENCH_SWARM_REGISTRY_PULL: "registry.local:5000/ci" }, () => {}, [], () => new FakeManager(MANAGER));
    expect(await ok.close()).toEqual([]);
  });

  test("a task that completes: its exit code and times; cleanup removes service, secret and network", async () => {
    const { backend, fake } = await backendWith([["inspect", task({ State: "complete", Timestamp: "2026-01-01T00:00:09Z", ContainerStatus: { ContainerID: "c1", ExitCode: 0 } })]]);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(0);
    expect(trial.startError()).toBeUndefined();
    expect(await backend.inspect(trial)).toMatchObject({ exitCode: 0, finishedAt: "2026-01-01T00:00:09Z" });
    expect(await backend.cleanup(trial, false)).toEqual([]);
    const verbs = fake.calls.map((c) => `${c[0]} ${c[1]}`);
    expect(verbs.slice(1, 4)).toEqual(["network create", "secret create", "service create"]);
    expect(verbs.slice(-3)).toEqual(["service rm", "secret rm", "network rm"]);
  });

  test("a rejected task (e.g. no such image on the node) is a start error with the swarm's reason", async () => {
    const { backend } = await backendWith([["inspect", task({ State: "rejected", Err: "No such image: sha256:abc" })]]);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(125);
    expect(trial.startError()).toBe(msg.swarmRejected(trialNames("20260101-000000-abcdef").service, "rejected", "No such image: sha256:abc"));
  });

  test("a task that never starts is a start error after SSEBENCH_SWARM_START_TIMEOUT", async () => {
    const { backend } = await backendWith([["inspect", task({ State: "pending", Err: "no suitable node" })]], { SSEBENCH_SWARM_START_TIMEOUT: "0.05" });
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(125);
    expect(trial.startError()).toBe(msg.swarmNotStarted(trialNames("20260101-000000-abcdef").service, 0.05, "pending (no suitable node)"));
  });

  test("a node that goes down under a running task ends the trial as a start error", async () => {
    const { backend } = await backendWith([
      ["inspect", task({ State: "running", ContainerStatus: { ContainerID: "c1" } }, "node7")],
      ["node inspect", () => ({ stdout: "down\n" })],
    ]);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(125);
    expect(trial.startError()).toBe(msg.swarmNodeDown(trialNames("20260101-000000-abcdef").service, "node7"));
  });

  test("a service the engine refuses to create leaves nothing: the network made before it is removed", async () => {
    const { backend, fake } = await backendWith([["service create", () => ({ code: 1, stderr: "Error response from daemon: rpc error: invalid mount\n" })]]);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(125);
    expect(trial.id()).toBeUndefined();
    expect(trial.startError()).toContain("invalid mount");
    await backend.cleanup(trial, false);
    expect(fake.calls.map((c) => `${c[0]} ${c[1]}`).slice(-3)).toEqual(["service rm", "secret rm", "network rm"]);
  });

  test("upload (the default): a root-only upload secret, the trial, then its relay container; no upload is a warning; all removed", async () => {
    const fake = new FakeManager([
      ...MANAGER,
      ["inspect", task({ State: "complete", ContainerStatus: { ContainerID: "c1", ExitCode: 0 } })],
    ]);
    const env = { SSEBENCH_SWARM_POLL_MS: "5", SSEBENCH_SWARM_UPLOAD_WAIT: "0.05" };
    const backend = await SwarmBackend.open(env, () => {}, [], () => fake);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(0);
    const names = trialNames("20260101-000000-abcdef");
    const verbs = fake.calls.map((c) => `${c[0]} ${c[1]} ${c.at(-1)}`);
    expect(verbs.slice(1, 5)).toEqual([
      `network create ${names.network}`,
      "secret create /tmp/secret-patch.diff",
      expect.stringMatching(/^secret create \/tmp\/ssebench-secret-.*\/secret$/),
      "service create --x",
    ]);
    // On the manager's engine once the task has its node, so the scheduler never counts the relay against it.
    expect(verbs.indexOf("run --detach /run/ssebench-results/results.sock")).toBeGreaterThan(verbs.findIndex((v) => v.startsWith("inspect --format")));
    expect(fake.calls.find((c) => c[1] === "create" && c.includes(names.service))).toContain(`source=${names.uploadSecret},target=ssebench-upload,uid=0,gid=0,mode=0400`);
    const [warning] = await backend.collectResults(trial, spec);
    expect(warning).toStartWith("The trial's results did not come home: ");
    await backend.cleanup(trial, false);
    expect(fake.calls.slice(-5).map((c) => `${c[0]} ${c[1]} ${c.at(-1)}`)).toEqual([
      `service rm ${names.service}`,
      `rm --force ${names.relay}`,
      `secret rm ${names.patchSecret}`,
      `secret rm ${names.uploadSecret}`,
      `network rm ${names.network}`,
    ]);
    expect(await backend.close()).toEqual([]);
  });

  test("a relay that does not start stops its trial: a start error with the engine's reason (a job retries it)", async () => {
    const fake = new FakeManager([
      ...MANAGER,
      ["run --detach", () => ({ code: 125, stderr: "docker: Error response from daemon: network ssb-x-net not found.\n" })],
      ["inspect", task({ State: "running", ContainerStatus: { ContainerID: "c1" } })],
    ]);
    const backend = await SwarmBackend.open({ SSEBENCH_SWARM_POLL_MS: "5" }, () => {}, [], () => fake);
    const trial = backend.start(spec, () => {});
    await trial.done;
    const names = trialNames("20260101-000000-abcdef");
    expect(trial.startError()).toBe(msg.swarmRelayFailed(names.relay, "docker: Error response from daemon: network ssb-x-net not found."));
    expect(fake.calls.some((c) => c.join(" ") === `service rm ${names.service}`)).toBe(true);
    await backend.cleanup(trial, false);
    expect(await backend.close()).toEqual([]);
  });

  test("a task rejected before it had a node gets no relay", async () => {
    const fake = new FakeManager([...MANAGER, ["inspect", task({ State: "rejected", Err: "no suitable node" }, "")]]);
    const backend = await SwarmBackend.open({ SSEBENCH_SWARM_POLL_MS: "5" }, () => {}, [], () => fake);
    const trial = backend.start(spec, () => {});
    expect(await trial.done).toBe(125);
    await backend.cleanup(trial, false);
    expect(fake.calls.some((c) => c[0] === "run" || c[0] === "rm")).toBe(false);
    expect(await backend.close()).toEqual([]);
  });

  test("list: the trials' services and their relay containers, by label", async () => {
    const fake = new FakeManager([
      ...MANAGER,
      ["service ls", () => ({ stdout: "svc1\n" })],
      ["service inspect", () => ({ stdout: "ssb-a\trun-a\ttask-a\n" })],
      ["ps --all", (args) => ({ stdout: args.includes("label=ssebench.role=relay") ? "ssb-a-relay\trun-a\t\n" : "" })],
    ]);
    const backend = await SwarmBackend.open({ SSEBENCH_SWARM_RESULTS: "copy" }, () => {}, [], () => fake);
    expect(await backend.list()).toEqual([
      { id: "ssb-a", runId: "run-a", task: "task-a", state: "service" },
      { id: "ssb-a-relay", runId: "run-a", task: "", state: "relay" },
    ]);
  });

  test("a run with a model: its key only in a root-only secret (no argv holds it), the relay carries the gateway's two sockets (not the key file); all removed", async () => {
    const modelDir = mkdtempSync(join(tmpdir(), "ssebench-gw-test-"));
    const key = "sk-ssebench-not-in-any-argv";
    writeFileSync(join(modelDir, MODEL_KEY_FILE), `${key}\n`, { mode: 0o600 });
    const pluginKey = "sk-ssebench-plugin-not-in-any-argv";
    writeFileSync(join(modelDir, MODEL_PLUGIN_KEY_FILE), `${pluginKey}\n`, { mode: 0o600 });
    const secrets = new Map<string, string>();
    const fake = new FakeManager([
      ["secret create", (args) => (existsSync(args.at(-1) as string) && secrets.set(args.at(-2) as string, readFileSync(args.at(-1) as string, "utf8")), {})],
      ["service ps --no-trunc --format", () => ({ stdout: "Running 1 second ago\t\n" })],
      ...MANAGER,
      ["inspect", task({ State: "complete", ContainerStatus: { ContainerID: "c1", ExitCode: 0 } })],
    ]);
    try {
      const backend = await SwarmBackend.open({ SSEBENCH_SWARM_POLL_MS: "5", SSEBENCH_SWARM_UPLOAD_WAIT: "0.05" }, () => {}, [], () => fake);
      const trial = backend.start({ ...spec, modelDir }, () => {});
      expect(await trial.done).toBe(0);
      expect(trial.startError()).toBeUndefined();
      const names = trialNames("20260101-000000-abcdef");
      expect(JSON.parse(secrets.get(names.modelSecret) as string)).toEqual({ key, agent: "ssebench-results:4000", plugin: "ssebench-results:4001", plugin_key: pluginKey });
      expect(fake.calls.some((c) => c.some((a) => a.includes(key) || a.includes(pluginKey)))).toBe(false);
      const service = fake.calls.find((c) => c[1] === "create" && c.includes(names.service)) as string[];
      expect(service).toContain(`source=${names.modelSecret},target=ssebench-model,uid=0,gid=0,mode=0400`);
      const relay = fake.calls.find((c) => c[0] === "run" && c.includes(names.relay)) as string[];
      expect(relay.filter((_, i) => relay[i - 1] === "--mount").slice(1)).toEqual([
        `type=bind,source=${join(modelDir, "model.sock")},target=/run/ssebench-model/model.sock,readonly`,
        `type=bind,source=${join(modelDir, "plugin.sock")},target=/run/ssebench-model/plugin.sock,readonly`,
      ]);
      expect(relay.slice(relay.indexOf("relay"))).toEqual(["relay", "0.0.0.0:8080", "/run/ssebench-results/results.sock", "0.0.0.0:4000", "/run/ssebench-model/model.sock", "0.0.0.0:4001", "/run/ssebench-model/plugin.sock"]);
      await backend.collectResults(trial, spec);
      await backend.cleanup(trial, false);
      expect(fake.calls.filter((c) => c[0] === "secret" && c[1] === "rm").map((c) => c.at(-1))).toContain(names.modelSecret);
      await backend.close();
    } finally {
      rmSync(modelDir, { recursive: true, force: true });
    }
  });

  test("a run with a model and results copied is a start error that creates nothing: its calls would have no relay", async () => {
    const { backend, fake } = await backendWith([]);
    const trial = backend.start({ ...spec, modelDir: "/tmp/nowhere" }, () => {});
    expect(await trial.done).toBe(125);
    expect(trial.startError()).toBe(msg.swarmModelNeedsUpload());
    expect(fake.calls.filter((c) => c[1] === "create")).toEqual([]);
  });
});
