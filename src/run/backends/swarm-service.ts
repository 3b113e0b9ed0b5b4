/**
 * The `docker service create` of a Swarm trial (docs/backends.md), kept apart from its lifecycle so
 * the argv can be checked without a swarm: one task that never restarts, on the
 * trial's own internal overlay network (no egress, no other trial), with the local run's walls
 * where `service create` has them (capabilities, user, entrypoint, init, CPU/memory/pids limits),
 * labels for `list`, and the reference patch as a Swarm secret rather than a mount or a value
 * readable in `docker service inspect`.
 */
import { createHash } from "node:crypto";
import { type ModelSecret, MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../../contract/model.ts";
import { ENTRYPOINT, SECRET_MODEL_TARGET, SECRET_PATCH_TARGET, SECRET_UPLOAD_TARGET, SECRETS_DIR } from "../../contract/paths.ts";
import { storeMountFields } from "./agent-store.ts";
import { CAPABILITIES, type ContainerSpec } from "./container.ts";
import { JOB_LABEL } from "./owner.ts";

/** seconds between SIGTERM and SIGKILL when a trial is stopped (as `docker stop --time` locally) */
export const STOP_GRACE_SECONDS = 20;

/** The names of what one trial creates on the swarm; all carry the run ID. */
export interface TrialNames {
  service: string;
  network: string;
  patchSecret: string;
  /** the results-upload secret (URL and token) and the relay that carries the upload home */
  uploadSecret: string;
  relay: string;
  /** the model secret (the run's gateway key and where the relay takes its calls) */
  modelSecret: string;
}

/** the relay's name on every trial's network, and its port: the URL in each upload secret */
export const RELAY_ALIAS = "ssebench-results";
export const RELAY_PORT = 8080;
/** where the relay container sees the folder of the host's receiver socket */
export const RELAY_SOCKET_DIR = "/run/ssebench-results";
/** the relay's ports for the run's gateway: the agent's socket, then the plugin socket */
export const RELAY_MODEL_PORT = 4000;
export const RELAY_PLUGIN_PORT = 4001;
/** where the relay sees the run's gateway sockets (each bind-mounted alone: the key file stays out) */
export const RELAY_MODEL_DIR = "/run/ssebench-model";

/**
 * Swarm object names allow [a-zA-Z0-9-] and 63 characters: the run ID, made safe and cut, plus a
 * hash of the whole ID so two long IDs that share a prefix still get different names.
 */
export function trialNames(runId: string): TrialNames {
  const hash = createHash("sha256").update(runId).digest("hex").slice(0, 6);
  const safe = runId.replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 40).replace(/-+$/, "");
  const base = `ssb-${safe}-${hash}`;
  return { service: base, network: `${base}-net`, patchSecret: `${base}-patch`, uploadSecret: `${base}-upload`, relay: `${base}-relay`, modelSecret: `${base}-model` };
}

/** Bytes of a docker size ("4g", "512m", "100k", "1024b" or plain bytes). */
export function sizeBytes(size: string): number {
  const m = /^([0-9]+)([bkmg]?)$/i.exec(size);
  if (!m) return Number.NaN;
  const unit = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Number(m[1]) * unit;
}

export interface ServiceInput {
  names: TrialNames;
  /**
   * `--mode replicated-job` (engine ≥ 24), else one replica that never restarts: on 20.10,
   * `service rm` of a replicated job leaves its task and container on the node, even a running one
   * (moby/moby#44312, #42789; fixed in 24), while a removed replicated service takes both along.
   */
  jobMode: boolean;
  spec: ContainerSpec;
  image: string;
  constraints: readonly string[];
  /** whether the reference patch secret was created (spec.referencePatch was set) */
  withPatch: boolean;
  /** whether the results go home by upload (the upload secret exists) */
  withUpload: boolean;
  /** whether the run has a model (the model secret exists) */
  withModel?: boolean;
}

/**
 * The argv after `docker`. Limits only, no reservations: with reservations, engine 20.10's
 * constraint enforcer rejected job tasks ("assigned node no longer meets constraints") while the
 * node had room, as it counts finished job tasks; a job's --jobs bounds what runs at once instead.
 */
export function serviceArgs(input: ServiceInput): string[] {
  const { names, spec } = input;
  const args = ["service", "create", "--detach", "--quiet", "--name", names.service];
  args.push(...(input.jobMode ? ["--mode", "replicated-job"] : ["--mode", "replicated", "--replicas", "1"]));
  args.push("--restart-condition", "none", "--no-resolve-image");
  args.push("--network", names.network, "--endpoint-mode", "dnsrr");
  args.push("--init", "--cap-drop", "ALL");
  for (const cap of CAPABILITIES) args.push("--cap-add", cap);
  args.push("--user", "0:0", "--entrypoint", ENTRYPOINT, "--workdir", "/");
  const cpus = String(spec.resources.cpus);
  const memory = String(sizeBytes(spec.resources.memory));
  args.push("--limit-cpu", cpus, "--limit-memory", memory);
  args.push("--limit-pids", String(spec.resources.pids_limit), "--stop-grace-period", `${STOP_GRACE_SECONDS}s`);
  for (const c of input.constraints) args.push("--constraint", c);
  const env: Record<string, string> = { ...spec.env };
  if (input.withPatch) {
    env.SSE_REFERENCE_PATCH = `${SECRETS_DIR}/${SECRET_PATCH_TARGET}`;
    // Root only: the entrypoint reads it; the agent (model) must not.
    args.push("--secret", `source=${names.patchSecret},target=${SECRET_PATCH_TARGET},uid=0,gid=0,mode=0400`);
  }
  if (input.withUpload) args.push("--secret", `source=${names.uploadSecret},target=${SECRET_UPLOAD_TARGET},uid=0,gid=0,mode=0400`);
  if (input.withModel) args.push("--secret", `source=${names.modelSecret},target=${SECRET_MODEL_TARGET},uid=0,gid=0,mode=0400`);
  for (const [k, v] of Object.entries(env)) args.push("--env", `${k}=${v}`);
  // The node's copy of the agent's files (swarm-stores.ts), as a local run mounts the engine's.
  if (spec.agentStore) args.push("--mount", storeMountFields(spec.agentStore).join(","));
  for (const [k, v] of Object.entries({ ...spec.labels, "ssebench.backend": "swarm" })) {
    args.push("--label", `${k}=${v}`, "--container-label", `${k}=${v}`);
  }
  args.push(input.image, "--mode", "sandbox", "--", ...spec.command);
  return args;
}

/** What a relay container is started from (relayArgs). */
export interface RelayInput {
  names: TrialNames;
  image: string;
  /** the host folder of the results receiver's socket, and the socket's name in it */
  socketDir: string;
  socketName: string;
  runId: string;
  /** the job the trial is part of (its folder): labels the relay too (owner.ts) */
  job?: string;
  /** the run's gateway sockets on this host (run/model-gateway.ts), relayed on RELAY_MODEL_PORT and RELAY_PLUGIN_PORT */
  model?: { socket: string; pluginSocket: string };
}

/**
 * The relay of one trial: `ssebench-entrypoint relay` from the trial's own image, as a plain
 * container (`docker run` on the manager's engine, the orchestrator's machine) on the trial's
 * attachable network as RELAY_ALIAS, bind-mounting the folder of the host's results receiver
 * socket; TCP from the trial goes to that socket, nothing else is reachable. Not a swarm task: the
 * scheduler would count it on the manager and place every trial on the other nodes.
 */
export function relayArgs(input: RelayInput): string[] {
  const { names } = input;
  const args = ["run", "--detach", "--name", names.relay, "--network", names.network, "--network-alias", RELAY_ALIAS];
  args.push("--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--read-only", "--user", "0:0", "--entrypoint", ENTRYPOINT, "--workdir", "/");
  args.push("--cpus", "0.5", "--memory", RELAY_MEMORY, "--memory-swap", RELAY_MEMORY, "--pids-limit", "64");
  args.push("--mount", `type=bind,source=${input.socketDir},target=${RELAY_SOCKET_DIR},readonly`);
  for (const label of [...ownerLabels(input.runId, input.job), "ssebench.backend=swarm", `${ROLE_LABEL}=relay`]) args.push("--label", label);
  const model = input.model ? modelRelay(input.model) : { mounts: [], pairs: [] };
  for (const m of model.mounts) args.push("--mount", m);
  args.push(input.image, "relay", `0.0.0.0:${RELAY_PORT}`, `${RELAY_SOCKET_DIR}/${input.socketName}`, ...model.pairs);
  return args;
}

/** The relay's part for a run's gateway: each socket bind-mounted on its own, and its port. */
export function modelRelay(model: { socket: string; pluginSocket: string }): { mounts: string[]; pairs: string[] } {
  const mounts: string[] = [];
  const pairs: string[] = [];
  for (const [source, name, port] of [[model.socket, MODEL_SOCKET, RELAY_MODEL_PORT], [model.pluginSocket, MODEL_PLUGIN_SOCKET, RELAY_PLUGIN_PORT]] as const) {
    mounts.push(`type=bind,source=${source},target=${RELAY_MODEL_DIR}/${name},readonly`);
    pairs.push(`0.0.0.0:${port}`, `${RELAY_MODEL_DIR}/${name}`);
  }
  return { mounts, pairs };
}

/** The model secret's text: the run's key and where, on the trial's network, its relay listens. */
export function modelSecretText(key: string, pluginKey: string): string {
  const secret: ModelSecret = { key, agent: `${RELAY_ALIAS}:${RELAY_MODEL_PORT}`, plugin: `${RELAY_ALIAS}:${RELAY_PLUGIN_PORT}`, plugin_key: pluginKey };
  return JSON.stringify(secret);
}

const RELAY_MEMORY = "256m";
/** the label that tells a trial's relay container from the trial's own containers (list, cleanup) */
export const ROLE_LABEL = "ssebench.role";

/**
 * The trial's overlay network: internal (no route out); attachable, so the trial's relay (a plain
 * container on the manager) can join it.
 */
export function networkArgs(names: TrialNames, runId: string, job?: string): string[] {
  const labels = [...ownerLabels(runId, job), "ssebench.backend=swarm"].flatMap((l) => ["--label", l]);
  return ["network", "create", "--driver", "overlay", "--internal", "--attachable", ...labels, names.network];
}

/** The labels of what a trial makes beside its service: its run, and its job when it is a job's (a resume removes them). */
export function ownerLabels(runId: string, job: string | undefined): string[] {
  return [`ssebench.run-id=${runId}`, ...(job ? [`${JOB_LABEL}=${job}`] : [])];
}

/** `SSEBENCH_SWARM_NODES`: "NODE-ID=ENGINE,…" → map; undefined when malformed. */
export function parseNodes(value: string | undefined): Map<string, string> | undefined {
  const nodes = new Map<string, string>();
  if (!value?.trim()) return nodes;
  for (const pair of value.split(",")) {
    const at = pair.indexOf("=");
    const id = pair.slice(0, at).trim();
    const engine = pair.slice(at + 1).trim();
    if (at <= 0 || !/^[a-z0-9]+$/i.test(id) || !engine) return undefined;
    nodes.set(id, engine);
  }
  return nodes;
}

/** Whether an engine version ("20.10.24+dfsg1", "24.0.7") has replicated jobs that clean up. */
export function jobsCleanUp(serverVersion: string): boolean {
  const major = Number(/^(\d+)\./.exec(serverVersion)?.[1] ?? 0);
  return major >= 24;
}
