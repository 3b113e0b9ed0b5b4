/**
 * Images through a registry and results pushed home, on the two-node test swarm
 * (setup/swarm-two-node.sh), with the pieces a backend uses: the demo task's agent layer pushed
 * to a registry on loopback (setup/registry.sh, also served on the swarm's bridge) and pulled by
 * digest on the worker; the trial's only way out of its internal overlay is the backend's relay, a
 * plain container on the manager's engine attached to the overlay (`ssebench-entrypoint relay`,
 * reached by its alias across nodes) in front of the receiver's Unix socket; the entrypoint on the
 * worker uploads with the token from a root-only Swarm secret. The agent there runs with
 * no_new_privs although `service create` cannot ask for it (the entrypoint sets it).
 * Runs with SSEBENCH_E2E=1 SSEBENCH_SWARM=1 and the swarm's variables (`swarm-two-node.sh env`).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ENTRYPOINT } from "../../src/contract/paths.ts";
import { CAPABILITIES } from "../../src/run/backends/container.ts";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { networkArgs, RELAY_ALIAS, RELAY_PORT, relayArgs, type TrialNames } from "../../src/run/backends/swarm-service.ts";
import { startResultsReceiver } from "../../src/run/backends/upload/receiver.ts";
import { RegistryPusher } from "../../src/run/backends/registry-push.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { demoDir, readJson } from "../e2e/helpers.ts";

setDefaultTimeout(1_800_000);
const SWARM = process.env.SSEBENCH_E2E === "1" && process.env.SSEBENCH_SWARM === "1";
const SKIP = SWARM ? "" : " [skipped: set SSEBENCH_E2E=1 SSEBENCH_SWARM=1 with the test swarm up (setup/swarm-two-node.sh)]";
const manager = process.env.SSEBENCH_SWARM_HOST ?? "";
/** the swarm's bridge, which its node engines trust as a registry address (`swarm-two-node.sh env`) */
const BRIDGE = process.env.SSEBENCH_SWARM_BRIDGE || "10.99.0.254";
const work = tempDir("push-swarm-upload-");
const registryDir = join(work.path, "registry");
const name = `push-up-${process.pid}`;
const nodeEngines = (process.env.SSEBENCH_SWARM_NODES ?? "").split(",").filter(Boolean).map((p) => p.split("=")[1] as string);
const names: TrialNames = { service: `${name}-trial`, network: `${name}-net`, relay: `${name}-relay`, uploadSecret: `${name}-upload`, patchSecret: `${name}-patch`, modelSecret: `${name}-model` };
/** what this test made on the engines: the pushed tag here, the pulled image on the nodes */
const made: { tag?: string; ref?: string } = {};

/** Async on purpose: the receiver answers on this process's event loop while trials run. */
async function dk(host: string, args: string[]): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(["docker", ...args], { env: { ...process.env, DOCKER_HOST: host }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: `${out}${err}`.trim() };
}
const onManager = (args: string[]) => dk(manager, args);

afterAll(async () => {
  if (SWARM) {
    await onManager(["service", "rm", names.service]);
    await onManager(["rm", "--force", names.relay]);
    await onManager(["secret", "rm", `${name}-upload`]);
    for (let i = 0; i < 40 && (await onManager(["network", "rm", `${name}-net`])).code !== 0; i++) await Bun.sleep(250);
    Bun.spawnSync(["bash", join(repoRoot, "setup/registry.sh"), "stop", registryDir]);
    if (made.tag) await dk(process.env.DOCKER_HOST ?? "", ["rmi", made.tag]);
    // A node removes a removed service's container a moment later; only then can its image go.
    for (const engine of made.ref ? nodeEngines : []) {
      for (let i = 0; i < 40 && (await dk(engine, ["image", "inspect", made.ref as string])).code === 0; i++) {
        await dk(engine, ["rmi", made.ref as string]);
        await Bun.sleep(250);
      }
    }
  }
  work.cleanup();
});

describe.skipIf(!SWARM)(`results pushed home on the two-node swarm${SKIP}`, () => {
  test("a trial on the worker, its image pulled by digest from the registry, uploads through the relay into a run folder here", async () => {
    // The demo agent layer with this build's entrypoint (a local run builds it, or finds it built).
    const results = join(work.path, "results");
    const local = await ssebench(["run", "--local", demoDir, "--task", "htmlesc-quote-overflow", "--agent", "dummy", "--results", results, "--run-id", "push-local", "--timeout", "600"]);
    expect(local.exitCode).toBe(0);
    const localDir = join(results, "htmlesc-quote-overflow", "none", "dummy", "push-local");
    const image = readJson<Summary>(join(localDir, "summary.json")).container.image as string;

    const reg = Bun.spawnSync(["bash", join(repoRoot, "setup/registry.sh"), "start", registryDir], { env: { ...process.env, SSEBENCH_REGISTRY_ALSO: BRIDGE }, stdout: "pipe", stderr: "pipe" });
    expect(reg.exitCode).toBe(0);
    const [loopback, bridge] = readFileSync(join(registryDir, "address"), "utf8").trim().split("\n");
    expect(bridge).toBe(`${BRIDGE}:${loopback?.split(":")[1]}`);
    const pusher = new RegistryPusher(new DockerCli(), loopback as string, { pullFrom: bridge });
    const ref = await pusher.push(image, "push-probe/agent-dummy", String(process.pid));
    made.tag = `${loopback}/push-probe/agent-dummy:${process.pid}`;
    made.ref = ref;
    expect(ref).toMatch(new RegExp(`^${BRIDGE.replaceAll(".", "\\.")}:\\d+/push-probe/agent-dummy@sha256:[0-9a-f]{64}$`));

    const sockDir = mkdtempSync(join(tmpdir(), "push-sw-"));
    chmodSync(sockDir, 0o700);
    const receiver = startResultsReceiver({ listen: { unix: join(sockDir, "upload.sock") } });
    try {
      const runDir = join(work.path, "pushed");
      mkdirSync(join(runDir, "archive"), { recursive: true });
      writeFileSync(join(runDir, "result.json"), "");
      const up = receiver.expect(name, runDir, { advertise: `http://${RELAY_ALIAS}:${RELAY_PORT}` });
      const secretFile = join(work.path, "upload.json");
      writeFileSync(secretFile, up.secretText, { mode: 0o600 });
      expect((await onManager(["secret", "create", `${name}-upload`, secretFile])).code).toBe(0);
      rmSync(secretFile);
      expect((await onManager(networkArgs(names, name))).code).toBe(0);
      const common = ["--detach", "--quiet", "--network", names.network, "--endpoint-mode", "dnsrr", "--user", "0:0", "--entrypoint", ENTRYPOINT];
      const relay = await onManager(relayArgs({ names, image: ref, socketDir: sockDir, socketName: "upload.sock", runId: name }));
      expect(relay).toMatchObject({ code: 0 });
      const caps = CAPABILITIES.flatMap((c) => ["--cap-add", c]);
      const trial = await onManager([
        "service", "create", "--name", `${name}-trial`, ...common, "--mode", "replicated", "--replicas", "1", "--restart-condition", "none", "--init",
        "--constraint", "node.labels.ssebench.role==runner", "--cap-drop", "ALL", ...caps, "--workdir", "/", "--env", "SSE_ARCHIVE=/tmp/sse-archive",
        "--secret", `source=${name}-upload,target=ssebench-upload,uid=0,gid=0,mode=0400`,
        ref, "--mode", "sandbox", "--", "/bin/sh", "-c", 'echo from-the-worker > "$SSE_ARCHIVE/where.txt"; grep ^NoNewPrivs /proc/self/status > "$SSE_ARCHIVE/nnp"; cat /run/secrets/ssebench-upload > "$SSE_ARCHIVE/token" 2>/dev/null || echo denied > "$SSE_ARCHIVE/token"',
      ]);
      expect(trial.code).toBe(0);
      // The upload comes before the task ends; a task that ended without one fails the test soon.
      const task = async () => {
        const id = (await onManager(["service", "ps", "--quiet", `${name}-trial`])).out.split("\n")[0] ?? "";
        return (await onManager(["inspect", "--format", "{{.NodeID}} {{.Status.State}} {{.Status.Err}}", id])).out;
      };
      const ended = (async () => {
        for (;;) {
          const state = await task();
          if (/ (complete|failed|rejected|shutdown|orphaned)/.test(state)) break;
          await Bun.sleep(1000);
        }
        await Bun.sleep(30_000);
        return { ok: false as const, reason: `the trial ended without an upload: ${await task()}` };
      })();
      const outcome = await Promise.race([up.outcome, ended]);
      expect(outcome).toMatchObject({ ok: true });
      const worker = (await onManager(["node", "ls", "--quiet", "--filter", "node.label=ssebench.role=runner"])).out;
      expect((await task()).split(" ")[0]).toBe(worker);
      expect(readFileSync(join(runDir, "archive", "where.txt"), "utf8")).toBe("from-the-worker\n");
      expect(readFileSync(join(runDir, "archive", "token"), "utf8")).toBe("denied\n");
      expect(readFileSync(join(runDir, "archive", "nnp"), "utf8")).toBe("NoNewPrivs:\t1\n");
      const pushed = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
      const graded = JSON.parse(readFileSync(join(localDir, "result.json"), "utf8"));
      expect(pushed.patch_result.status).toBe(graded.patch_result.status);
    } finally {
      await receiver.close();
      rmSync(sockDir, { recursive: true, force: true });
    }
  });
});
