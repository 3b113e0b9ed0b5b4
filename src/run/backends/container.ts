/**
 * The run container: no network at all (`--network none`: only its own loopback, so it reaches
 * neither other runs, nor the host's services, nor anything beyond the machine; a model is reached
 * through the mounted gateway socket), `docker run --init` in the foreground with the results
 * mounts, resource limits and labels, stop on request, `docker inspect` of its final state, and
 * teardown unless the container is kept.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARCHIVE_MOUNT, ENTRYPOINT, REFERENCE_MOUNT, RESULTS_MOUNT } from "../../contract/paths.ts";
import { MODEL_DIR } from "../../contract/model.ts";
import { SIDECAR_DIR, SIDECAR_MODE } from "../../contract/sidecar.ts";
import { storeMountFields } from "./agent-store.ts";
import type { Docker } from "./docker.ts";
import type { Resources } from "../../formats/run/summary.ts";

/**
 * The only capabilities the entrypoint keeps (docs/container-contract.md §10): hand the results
 * back (CHOWN, FOWNER), read and clean what the agent and the grader wrote (DAC_OVERRIDE), start
 * children as `model`/`sse-runner` (SETUID, SETGID) and kill their processes (KILL). Not
 * SYS_RESOURCE: engines in sandboxes often cannot grant it, and children are made the OOM killer's
 * first choice and given lower rlimits without it.
 */
export const CAPABILITIES = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "KILL", "SETGID", "SETUID"] as const;

export interface ContainerSpec {
  image: string;
  runDir: string;
  archiveDir: string;
  env: Record<string, string>;
  labels: Record<string, string>;
  resources: Resources;
  platform: string | undefined;
  referencePatch: string | undefined;
  /** the agent's argv (the agent layer's CMD): passed after the pinned entrypoint's own flags */
  command: string[];
  /** the run's gateway folder (socket + key), mounted read-only at MODEL_DIR */
  modelDir?: string;
  /** the agent's store, a volume mounted read-only at /opt/agent (agent-store.ts) */
  agentStore?: string;
  /** sidecar mode: the agent's own container beside this one (sidecar-pair.ts) */
  sidecar?: SidecarSpec;
  /** the engine takes a storage quota: the writable layer is bounded by `resources.disk` (disk-watch.ts) */
  diskQuota?: boolean;
}

/** The agent's container of sidecar mode (docs/container-contract.md §13). */
export interface SidecarSpec {
  /** the sidecar image's ID, and its CMD: the agent's argv */
  image: string;
  command: string[];
  /** the task's source folder, shared by both containers at this path (a volume) */
  source: string;
  /** ssebench-entrypoint on the host, mounted read-only at ENTRYPOINT in the sidecar */
  entrypoint: string;
}

/** What a sidecar pair's task container mounts besides a sandbox's: the shared source and the socket folder. */
export interface PairMounts {
  volume: string;
  sockets: string;
}

/** --mount's fields are CSV: a field with ',' or '"' is quoted. */
const csvFields = (fields: string[]) => fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(",");

/** A `--mount` of a named volume. */
export function volumeMount(volume: string, target: string, nocopy = false): string {
  const fields = ["type=volume", `source=${volume}`, `target=${target}`, ...(nocopy ? ["volume-nocopy"] : [])];
  return csvFields(fields);
}

/**
 * A `--mount` bind. Not `-v src:dst`, which splits at every ':' so a results folder such as
 * `/srv/a:b` made docker refuse the run; --mount fields are CSV, so a field with ',' or '"' is quoted.
 */
export function bindMount(source: string, target: string, readonly = false): string {
  const fields = ["type=bind", `source=${source}`, `target=${target}`, ...(readonly ? ["readonly"] : [])];
  return csvFields(fields);
}

/**
 * The `docker run` argv, spec §4.5 plus --init, limits and least privilege. The entrypoint, user
 * and working folder are pinned here, so no agent layer can replace the grader or run it as
 * another user; the agent's CMD follows the entrypoint's own flags.
 */
export function runArgs(spec: ContainerSpec, cidfile: string, pair?: PairMounts): string[] {
  const args = ["run", "--cidfile", cidfile, "--init", "--sig-proxy=false"];
  if (spec.platform) args.push("--platform", spec.platform);
  args.push("--network", "none");
  args.push("--security-opt", "no-new-privileges", "--cap-drop", "ALL");
  for (const cap of CAPABILITIES) args.push("--cap-add", cap);
  args.push("--user", "0:0", "--entrypoint", ENTRYPOINT, "--workdir", "/");
  args.push(
    "--cpus",
    String(spec.resources.cpus),
    "--memory",
    spec.resources.memory,
    "--memory-swap",
    spec.resources.memory,
    "--pids-limit",
    String(spec.resources.pids_limit),
  );
  if (spec.diskQuota) args.push("--storage-opt", `size=${spec.resources.disk}`);
  for (const [k, v] of Object.entries(spec.env)) args.push("-e", `${k}=${v}`);
  args.push("--mount", bindMount(spec.runDir, RESULTS_MOUNT), "--mount", bindMount(spec.archiveDir, ARCHIVE_MOUNT));
  if (spec.referencePatch) args.push("--mount", bindMount(spec.referencePatch, REFERENCE_MOUNT, true));
  if (spec.modelDir) args.push("--mount", bindMount(spec.modelDir, MODEL_DIR, true));
  if (spec.agentStore) args.push("--mount", csvFields(storeMountFields(spec.agentStore)));
  if (pair && spec.sidecar) args.push("--mount", volumeMount(pair.volume, spec.sidecar.source), "--mount", bindMount(pair.sockets, SIDECAR_DIR));
  for (const [k, v] of Object.entries(spec.labels)) args.push("--label", `${k}=${v}`);
  // Sidecar mode: the agent's argv is the sidecar's, never this container's.
  if (pair) args.push(spec.image, "--mode", SIDECAR_MODE);
  else args.push(spec.image, "--mode", "sandbox", "--", ...spec.command);
  return args;
}

export interface ContainerState {
  exitCode: number | null;
  oomKilled: boolean;
  startedAt: string | null;
  finishedAt: string | null;
  /** the writable layer's size (SizeRw), when the engine said */
  diskBytes?: number;
  /** the layer's size that made the disk watch stop the trial (disk-watch.ts) */
  diskExceeded?: number;
}

export interface RunningContainer {
  /** resolves with the `docker run` client's exit status */
  done: Promise<number>;
  /** the container ID once docker wrote the cidfile (undefined if it never started) */
  id(): string | undefined;
  /** the engine's refusal when the container did not start (`docker run` status 125), once done */
  startError(): string | undefined;
}

/** docker's own lines ("docker: Error response from daemon: …") of a `docker run` that failed to start. */
export function engineRefusal(code: number, stderr: string): string | undefined {
  if (code !== 125) return undefined;
  const lines = stderr.split("\n").filter((l) => l.startsWith("docker: ")).map((l) => l.slice("docker: ".length).trim());
  return lines.length > 0 ? lines.join("; ") : undefined;
}

/** Starts the container in the foreground; output goes to onOutput. */
export function startContainer(docker: Docker, spec: ContainerSpec, onOutput: (chunk: string) => void, pair?: PairMounts): RunningContainer {
  return launch(docker, (cidfile) => runArgs(spec, cidfile, pair), onOutput);
}

/** `docker run` of `args(cidfile)` in the foreground: its container ID once written, its refusal, its status. */
export function launch(docker: Docker, args: (cidfile: string) => string[], onOutput: (chunk: string) => void): RunningContainer {
  const temp = mkdtempSync(join(tmpdir(), "ssebench-run-"));
  const cidfile = join(temp, "cid");
  let cid: string | undefined;
  const readCid = () => {
    if (cid) return cid;
    try {
      cid = readFileSync(cidfile, "utf8").trim() || undefined;
    } catch {
      // not written yet
    }
    return cid;
  };
  // Older engines warn about IPv4 forwarding for a container without outside networking: that is the point.
  const filtered = (chunk: string) => {
    const kept = chunk.replace(/^WARNING: IPv4 forwarding is disabled\. Networking will not work\.\n/m, "");
    if (kept) onOutput(kept);
  };
  // docker's own refusal (e.g. `--cpus` above the host's) was streamed through onOutput already.
  let refusal: string | undefined;
  const done = docker.call(args(cidfile), { onOutput: filtered }).then((r) => {
    readCid();
    rmSync(temp, { recursive: true, force: true });
    refusal = engineRefusal(r.code, r.stderr);
    return r.code;
  });
  return { done, id: readCid, startError: () => refusal };
}

/** `docker stop --time <grace>`; waits up to 10 s for the cidfile of a container still starting. */
export async function stopContainer(docker: Docker, running: RunningContainer, graceSeconds = 20): Promise<void> {
  for (let i = 0; i < 100 && !running.id(); i++) await Bun.sleep(100);
  const id = running.id();
  if (id) await docker.call(["stop", "--time", String(graceSeconds), id]);
}

/** The container's final state and its writable layer's size (`--size`: the engine sums the layer's files). */
export async function inspectContainer(docker: Docker, id: string): Promise<ContainerState> {
  const r = await docker.call(["container", "inspect", "--size", "--format", "{{json .State}}\t{{.SizeRw}}", id]);
  if (r.code !== 0) return { exitCode: null, oomKilled: false, startedAt: null, finishedAt: null };
  const [state = "{}", size = ""] = r.stdout.trim().split("\t");
  const s = JSON.parse(state) as { ExitCode?: number; OOMKilled?: boolean; StartedAt?: string; FinishedAt?: string };
  const time = (t: string | undefined) => (t && !t.startsWith("0001-") ? t : null);
  return {
    exitCode: s.ExitCode ?? null,
    oomKilled: Boolean(s.OOMKilled),
    startedAt: time(s.StartedAt),
    finishedAt: time(s.FinishedAt),
    ...(/^[0-9]+$/.test(size) ? { diskBytes: Number(size) } : {}),
  };
}

/**
 * Removes the container unless it is kept (after `beforeRemoval`, which reads its state). Errors
 * are returned as warnings.
 */
export async function teardown(
  docker: Docker,
  containerId: string | undefined,
  keep: boolean,
  beforeRemoval: () => Promise<void> = async () => {},
): Promise<string[]> {
  await beforeRemoval();
  if (!containerId || keep) return [];
  const removed = await docker.call(["rm", "--force", "--volumes", containerId]);
  return removed.code === 0 ? [] : [`Could not remove container ${containerId.slice(0, 12)}: ${removed.stderr.trim()}`];
}
