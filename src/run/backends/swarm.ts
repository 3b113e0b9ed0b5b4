/**
 * The Swarm backend (docs/backends.md): each trial is a one-task service (a replicated job on
 * engines that clean those up, else one replica that never restarts) on its own internal overlay
 * network, started through a manager's engine (SSEBENCH_SWARM_HOST). Images built on the local
 * engine reach the nodes through a registry or by save | load (swarm-images.ts); each trial is watched
 * until it ends (swarm-trial.ts). Results come home by the entrypoint's upload to this process's results
 * receiver, through a relay container on the trial's network and this node (SSEBENCH_SWARM_RESULTS=
 * upload, the default), or by `docker cp` through the task's node engine (=copy). A task that is
 * rejected, never starts, or whose node goes down ends the trial as a start error, which the run
 * records as an infrastructure error (a job retries it).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MODEL_KEY_FILE, MODEL_PLUGIN_KEY_FILE, MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../../contract/model.ts";
import { ARCHIVE_MOUNT, RESULTS_MOUNT } from "../../contract/paths.ts";
import { UserError } from "../../errors.ts";
import type { AgentStoreRef, Backend, Trial, TrialListing } from "./backend.ts";
import type { ContainerSpec, ContainerState } from "./container.ts";
import { type Docker, DockerCli, engineAddress, firstLine } from "./docker.ts";
import { msg } from "../messages.ts";
import { SwarmImages } from "./swarm-images.ts";
import { type Removed, removeLabelled } from "./leftovers.ts";
import { JOB_LABEL } from "./owner.ts";
import { SwarmStores } from "./swarm-stores.ts";
import { jobsCleanUp, modelSecretText, networkArgs, ownerLabels, parseNodes, relayArgs, ROLE_LABEL, serviceArgs, trialNames } from "./swarm-service.ts";
import { SwarmTrial, watchTask } from "./swarm-trial.ts";
import type { ResultsReceiver } from "./upload/receiver.ts";

const RECEIVER_SOCKET = "results.sock";

export class SwarmBackend implements Backend {
  readonly name = "swarm" as const;
  private images: SwarmImages | undefined;
  private stores: SwarmStores | undefined;
  private readonly nodeEngines = new Map<string, Docker>();

  private constructor(
    private readonly manager: Docker,
    private readonly nodes: Map<string, string>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly connect: (env: NodeJS.ProcessEnv) => Docker,
    private readonly constraints: readonly string[],
    private readonly jobMode: boolean,
    /** whether results are uploaded (through a relay on this machine's engine) rather than copied */
    private readonly uploads: boolean,
  ) {}

  private receiver: Promise<{ receiver: ResultsReceiver; dir: string }> | undefined;
  /** the local engine, where the layers were built (pushes to the registry start there) */
  private local: Docker | undefined;

  /** Connects to the manager and checks it is one; the nodes' engines come from SSEBENCH_SWARM_NODES. */
  static async open(
    env: NodeJS.ProcessEnv,
    log: (line: string) => void,
    constraints: readonly string[] = [],
    /** an engine client for an environment (tests give a fake) */
    connect: (env: NodeJS.ProcessEnv) => Docker = (e) => new DockerCli(log, e),
    /** the local engine (default: the one DOCKER_HOST names) */
    local?: Docker,
  ): Promise<SwarmBackend> {
    const managerEnv = { ...env, DOCKER_HOST: env.SSEBENCH_SWARM_HOST || env.DOCKER_HOST || "" };
    const manager = connect(managerEnv);
    const nodes = parseNodes(env.SSEBENCH_SWARM_NODES);
    if (!nodes) throw new UserError(msg.swarmNodes(env.SSEBENCH_SWARM_NODES ?? ""));
    const r = await manager.call(["info", "--format", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}} {{.ServerVersion}} {{.Swarm.NodeID}}"]);
    const [state = "", control = "", version = ""] = r.stdout.trim().split(" ");
    if (r.code !== 0 || state !== "active" || control !== "true") {
      throw new UserError(msg.swarmNoManager(engineAddress(managerEnv), r.code === 0 ? `swarm state: ${state} ${control}` : firstLine(r.stderr)));
    }
    const results = env.SSEBENCH_SWARM_RESULTS || "upload";
    if (results !== "upload" && results !== "copy") throw new UserError(msg.swarmResultsSetting(results));
    for (const name of ["SSEBENCH_SWARM_START_TIMEOUT", "SSEBENCH_SWARM_POLL_MS", "SSEBENCH_SWARM_UPLOAD_WAIT"] as const) {
      const value = env[name];
      // Unset or empty takes the default; anything else must be a positive number (a negative one failed every trial at once).
      if (value && !(Number(value) > 0 && Number.isFinite(Number(value)))) throw new UserError(msg.swarmNumberSetting(name, value));
    }
    // Checked here, not when the first layer is pushed (after the builds), and named as the variable.
    for (const name of ["SSEBENCH_SWARM_REGISTRY", "SSEBENCH_SWARM_REGISTRY_PULL"] as const) {
      const value = env[name];
      if (!value) continue;
      const { checkedRegistry } = await import("./registry-push.ts");
      try {
        checkedRegistry(value);
      } catch {
        throw new UserError(msg.swarmRegistrySetting(name, value));
      }
    }
    const backend = new SwarmBackend(manager, nodes, env, connect, constraints, jobsCleanUp(version), results === "upload");
    backend.local = local;
    return backend;
  }

  /** The results receiver, on a Unix socket in a 0700 folder the relays bind-mount; started once. */
  private openReceiver(): Promise<{ receiver: ResultsReceiver; dir: string }> {
    this.receiver ??= (async () => {
      const { startResultsReceiver } = await import("./upload/receiver.ts");
      const { RELAY_ALIAS, RELAY_PORT } = await import("./swarm-service.ts");
      const dir = mkdtempSync(join(tmpdir(), "ssebench-results-"));
      chmodSync(dir, 0o700);
      const receiver = startResultsReceiver({ listen: { unix: join(dir, RECEIVER_SOCKET) }, advertise: `http://${RELAY_ALIAS}:${RELAY_PORT}` });
      return { receiver, dir };
    })();
    return this.receiver;
  }

  private engine(node: string): Docker | undefined {
    const address = this.nodes.get(node);
    if (!address) return undefined;
    let engine = this.nodeEngines.get(node);
    if (!engine) this.nodeEngines.set(node, (engine = this.connect({ ...this.env, DOCKER_HOST: address })));
    return engine;
  }

  /** See swarm-images.ts: a registry push, or save | load into each listed node. */
  prepareImages(image: string, signal?: AbortSignal): Promise<string> {
    this.images ??= new SwarmImages(this.env, this.nodes, (node) => this.engine(node) as Docker, this.local ?? this.connect(this.env));
    return this.images.prepare(image, signal);
  }

  /** See swarm-stores.ts: the store's volume filled on each listed node that lacks it. */
  prepareAgentStore(store: AgentStoreRef, signal?: AbortSignal): Promise<void> {
    this.stores ??= new SwarmStores(this.env, this.nodes, (node) => this.engine(node) as Docker, this.local ?? this.connect(this.env));
    return this.stores.prepare(store, signal);
  }

  start(spec: ContainerSpec, onOutput: (chunk: string) => void): Trial {
    const runId = spec.labels["ssebench.run-id"] ?? "run";
    const trial = new SwarmTrial(trialNames(runId), spec.referencePatch !== undefined);
    trial.done = this.run(trial, spec, runId, onOutput);
    return trial;
  }

  private async run(trial: SwarmTrial, spec: ContainerSpec, runId: string, onOutput: (chunk: string) => void): Promise<number> {
    const { names } = trial;
    const job = spec.labels[JOB_LABEL];
    const create = async (args: string[]) => {
      const r = await this.manager.call(args);
      if (r.code !== 0) throw new UserError(`docker ${args.slice(0, 2).join(" ")} ${args.at(-1)}: ${firstLine(r.stderr)}`);
    };
    try {
      // The model's calls go home through the relay, which only a run with an upload has.
      if (spec.modelDir && !this.uploads) throw new UserError(msg.swarmModelNeedsUpload());
      await create(networkArgs(names, runId, job));
      if (spec.referencePatch) await create(["secret", "create", ...secretLabels(runId, job), names.patchSecret, spec.referencePatch]);
      if (this.uploads) await this.uploadSecret(trial, spec, runId, create);
      if (spec.modelDir) {
        await this.createSecret(names.modelSecret, secretLabels(runId, job), modelSecretText(readKey(spec.modelDir, MODEL_KEY_FILE), readKey(spec.modelDir, MODEL_PLUGIN_KEY_FILE)), create);
        trial.withModel = true;
      }
      const withUpload = trial.upload !== undefined;
      await create(serviceArgs({ names, spec, image: spec.image, constraints: this.constraints, withPatch: trial.withPatch, withUpload, withModel: trial.withModel, jobMode: this.jobMode }));
      // The relay starts once the task has its node, long before the entrypoint's upload at its end:
      // its network attachment is a task on the manager, and the scheduler, counting tasks per node,
      // must not see it when it places the trial.
      if (this.uploads) {
        trial.relay = trial.placed.then(() => (trial.node && !trial.stopping ? this.startRelay(trial, spec, runId) : undefined));
        // Without its relay the trial's results cannot come home: no use letting it run.
        void trial.relay.then((failed) => failed && this.stop(trial));
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      trial.refusal = error.message;
      return 125;
    }
    trial.service = names.service;
    const [code, relayFailed] = await Promise.all([watchTask(this.manager, this.env, trial).finally(trial.markPlaced), trial.relay]);
    if (relayFailed && !trial.refusal) trial.refusal = relayFailed.message;
    const logs = await this.manager.call(["service", "logs", "--raw", names.service], { signal: AbortSignal.timeout(15_000) }).catch(() => undefined);
    if (logs && (logs.stdout || logs.stderr)) onOutput(logs.stdout + logs.stderr);
    return code;
  }

  /** The trial's upload secret (URL and token, root-only), read by the entrypoint. */
  private async uploadSecret(trial: SwarmTrial, spec: ContainerSpec, runId: string, create: (args: string[]) => Promise<void>): Promise<void> {
    const { receiver } = await this.openReceiver();
    trial.upload = receiver.expect(runId, spec.runDir);
    await this.createSecret(trial.names.uploadSecret, secretLabels(runId, spec.labels[JOB_LABEL]), trial.upload.secretText, create);
  }

  /** A Swarm secret from text, through a 0600 file the CLI reads; the file is gone before the trial starts. */
  private async createSecret(name: string, labels: string[], text: string, create: (args: string[]) => Promise<void>): Promise<void> {
    const temp = mkdtempSync(join(tmpdir(), "ssebench-secret-"));
    try {
      writeFileSync(join(temp, "secret"), text, { mode: 0o600 });
      await create(["secret", "create", ...labels, name, join(temp, "secret")]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }

  /**
   * The trial's relay, a container on the manager's engine (this machine: it bind-mounts the
   * receiver's socket folder); `docker run --detach` returns once it runs. Its failure is the
   * trial's start error: the upload would find no one.
   */
  private async startRelay(trial: SwarmTrial, spec: ContainerSpec, runId: string): Promise<UserError | undefined> {
    try {
      const { dir } = await this.openReceiver();
      const model = spec.modelDir ? { socket: join(spec.modelDir, MODEL_SOCKET), pluginSocket: join(spec.modelDir, MODEL_PLUGIN_SOCKET) } : undefined;
      trial.relayAsked = true;
      const r = await this.manager.call(relayArgs({ names: trial.names, image: spec.image, socketDir: dir, socketName: RECEIVER_SOCKET, runId, job: spec.labels[JOB_LABEL], model }));
      return r.code === 0 ? undefined : new UserError(msg.swarmRelayFailed(trial.names.relay, firstLine(r.stderr)));
    } catch (e) {
      return new UserError(msg.swarmRelayFailed(trial.names.relay, e instanceof Error ? e.message : String(e)));
    }
  }

  /** Polls the service's one task until it ends; the exit code, or 125 with trial.refusal set. */
  async stop(trial: Trial): Promise<void> {
    const t = trial as SwarmTrial;
    t.stopping = true;
    if (t.service) await this.manager.call(["service", "rm", t.service]);
  }

  async inspect(trial: Trial): Promise<ContainerState> {
    const t = trial as SwarmTrial;
    let oomKilled = false;
    let diskBytes: number | undefined;
    const engine = this.engine(t.node);
    if (engine && t.container) {
      const r = await engine.call(["container", "inspect", "--size", "--format", "{{.State.OOMKilled}}\t{{.SizeRw}}", t.container]);
      const [oom, size = ""] = r.stdout.trim().split("\t");
      oomKilled = r.code === 0 && oom === "true";
      if (r.code === 0 && /^[0-9]+$/.test(size)) diskBytes = Number(size);
    }
    return { exitCode: t.exitCode, oomKilled, startedAt: t.startedAt, finishedAt: t.finishedAt, ...(diskBytes === undefined ? {} : { diskBytes }) };
  }

  async logs(trial: Trial): Promise<string> {
    const t = trial as SwarmTrial;
    if (!t.service) return "";
    const r = await this.manager.call(["service", "logs", "--raw", t.service]);
    return r.stdout + r.stderr;
  }

  /** The upload's outcome (SSEBENCH_SWARM_RESULTS=upload), else `docker cp` through the task's node engine. */
  async collectResults(trial: Trial, spec: ContainerSpec): Promise<string[]> {
    const t = trial as SwarmTrial;
    if (t.upload) {
      // The entrypoint uploads before it exits: the trial has ended, so the upload is in or never comes.
      const upload = t.upload;
      const late = setTimeout(() => upload.cancel(), (Number(this.env.SSEBENCH_SWARM_UPLOAD_WAIT) || 30) * 1000);
      const outcome = await upload.outcome.finally(() => clearTimeout(late));
      return outcome.ok ? [] : [msg.swarmUploadFailed(outcome.reason)];
    }
    if (!t.container) return [];
    const engine = this.engine(t.node);
    if (!engine) return [msg.swarmNoResults(t.node)];
    const warnings: string[] = [];
    for (const [what, from, to] of [["results", RESULTS_MOUNT, spec.runDir], ["archive", ARCHIVE_MOUNT, spec.archiveDir]] as const) {
      const r = await engine.call(["cp", `${t.container}:${from}/.`, to]);
      if (r.code !== 0) warnings.push(msg.swarmCopyFailed(what, firstLine(r.stderr)));
    }
    return warnings;
  }

  /** Removes the service (and so its task's container), then its secret and network. */
  async cleanup(trial: Trial | undefined, keep: boolean): Promise<string[]> {
    if (!trial || keep) return [];
    const t = trial as SwarmTrial;
    const { names, withPatch, upload, relay, withModel } = t;
    upload?.cancel();
    const warnings: string[] = [];
    const gone = (stderr: string) => /not found|no such/i.test(stderr);
    const remove = async (what: string, args: string[]) => {
      const r = await this.manager.call(args);
      if (r.code !== 0 && !gone(r.stderr)) warnings.push(msg.swarmLeftover(`${what} ${args.at(-1)}`, firstLine(r.stderr)));
    };
    await remove("service", ["service", "rm", names.service]);
    // A relay still being started is removed once its `docker run` is back, never before.
    if (relay) {
      await relay;
      if (t.relayAsked) await remove("container", ["rm", "--force", "--volumes", names.relay]);
    }
    if (withPatch) await remove("secret", ["secret", "rm", names.patchSecret]);
    if (upload) await remove("secret", ["secret", "rm", names.uploadSecret]);
    if (withModel) await remove("secret", ["secret", "rm", names.modelSecret]);
    // The network is in use until the task's container is gone on its node: a few tries.
    for (let i = 0; ; i++) {
      const n = await this.manager.call(["network", "rm", names.network]);
      if (n.code === 0 || gone(n.stderr)) break;
      if (i === 40) {
        warnings.push(msg.swarmLeftover(`network ${names.network}`, firstLine(n.stderr)));
        break;
      }
      await Bun.sleep(250);
    }
    return warnings;
  }

  /** The trials' services, and the relay containers on the manager's engine. */
  async list(): Promise<TrialListing[]> {
    const ls = await this.manager.call(["service", "ls", "--quiet", "--filter", "label=ssebench.backend=swarm"]);
    const ids = ls.stdout.split("\n").filter(Boolean);
    const format = '{{.Spec.Name}}\t{{index .Spec.Labels "ssebench.run-id"}}\t{{index .Spec.Labels "ssebench.task-id"}}';
    const services = ids.length === 0 ? "" : (await this.manager.call(["service", "inspect", "--format", format, ...ids])).stdout;
    const relays = await this.manager.call(["ps", "--all", "--filter", "label=ssebench.backend=swarm", "--filter", `label=${ROLE_LABEL}=relay`, "--format", '{{.Names}}\t{{.Label "ssebench.run-id"}}\t']);
    const listing = (text: string, state: string) =>
      text.split("\n").filter(Boolean).map((line) => {
        const [id = "", runId = "", task = ""] = line.split("\t");
        return { id, runId, task, state };
      });
    return [...listing(services, "service"), ...listing(relays.code === 0 ? relays.stdout : "", "relay")];
  }

  /** The services first (their tasks' containers go with them), then the relays, secrets and networks. */
  removeJobLeftovers(jobDir: string): Promise<Removed> {
    return removeLabelled(this.manager, `${JOB_LABEL}=${jobDir}`, ["service", "container", "secret", "network"]);
  }

  async close(): Promise<string[]> {
    if (!this.receiver) return [];
    const { receiver, dir } = await this.receiver;
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
    return [];
  }
}

/** A key the run's gateway wrote into its folder (run/model-gateway.ts). */
const readKey = (dir: string, name: string): string => readFileSync(join(dir, name), "utf8").trim();

const secretLabels = (runId: string, job: string | undefined) => ownerLabels(runId, job).flatMap((l) => ["--label", l]);
