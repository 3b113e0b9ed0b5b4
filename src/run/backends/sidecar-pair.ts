/**
 * A sidecar trial on the local engine (docs/container-contract.md §13): two containers. The task's
 * (the tool layer, `--mode sidecar`) runs as a sandbox run's does, with the task's source folder on
 * a fresh volume and a socket folder from the host; once its control socket is there, the agent's
 * own image starts beside it: in the task container's process namespace (so the entrypoint's
 * kills of the agent's user reach it), with no network, no capability, no-new-privileges, the run's
 * own uid, the same limits, the source volume at the same path, the archive, the socket folder
 * read-only and ssebench-entrypoint read-only, which runs `sidecar-agent` there. When the sidecar's
 * container ends, the task's entrypoint gets SIGUSR1 (a sidecar that never connected is not waited
 * for). The trial's status is the task container's.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ARCHIVE_MOUNT, ENTRYPOINT } from "../../contract/paths.ts";
import { SIDECAR_AGENT_COMMAND, SIDECAR_DIR, SIDECAR_SOCKETS } from "../../contract/sidecar.ts";
import { msg } from "../messages.ts";
import { bindMount, type ContainerSpec, launch, type PairMounts, type RunningContainer, startContainer, stopContainer, teardown, volumeMount } from "./container.ts";
import type { Docker } from "./docker.ts";
import { JOB_LABEL, scratchPrefix } from "./owner.ts";

/** How often the host looks for the task container's control socket. */
const READY_POLL_MS = 50;

/** The sidecar's `docker run` argv (the task container's is container.ts runArgs with the pair's mounts). */
export function sidecarArgs(spec: ContainerSpec, pair: PairMounts, taskId: string, cidfile: string): string[] {
  const sidecar = spec.sidecar as NonNullable<ContainerSpec["sidecar"]>;
  const uid = spec.env.SSE_MODEL_UID as string;
  const args = ["run", "--cidfile", cidfile, "--sig-proxy=false", "--pid", `container:${taskId}`, "--network", "none"];
  args.push("--security-opt", "no-new-privileges", "--cap-drop", "ALL", "--user", `${uid}:${uid}`);
  args.push("--entrypoint", ENTRYPOINT, "--workdir", sidecar.source);
  const { cpus, memory, pids_limit } = spec.resources;
  args.push("--cpus", String(cpus), "--memory", memory, "--memory-swap", memory, "--pids-limit", String(pids_limit));
  args.push(
    "--mount",
    volumeMount(pair.volume, sidecar.source, true),
    "--mount",
    bindMount(spec.archiveDir, ARCHIVE_MOUNT),
    "--mount",
    bindMount(pair.sockets, SIDECAR_DIR, true),
    "--mount",
    bindMount(sidecar.entrypoint, ENTRYPOINT, true),
  );
  for (const [k, v] of Object.entries({ ...spec.labels, "ssebench.sidecar": "true" })) args.push("--label", `${k}=${v}`);
  args.push(sidecar.image, SIDECAR_AGENT_COMMAND, "--", ...sidecar.command);
  return args;
}

export class SidecarPair implements RunningContainer {
  readonly done: Promise<number>;
  private task: RunningContainer | undefined;
  private sidecar: RunningContainer | undefined;
  private refusal: string | undefined;
  private stopping = false;
  private readonly pair: PairMounts;

  constructor(
    private readonly docker: Docker,
    spec: ContainerSpec,
    private readonly onOutput: (chunk: string) => void,
  ) {
    // Short, under /tmp: a Unix socket path is limited to 107 bytes.
    const sockets = mkdtempSync(scratchPrefix("sidecar", spec.labels[JOB_LABEL]));
    chmodSync(sockets, 0o711);
    this.pair = { volume: `ssebench-sidecar-${randomBytes(6).toString("hex")}`, sockets };
    this.done = this.run(spec);
  }

  private async run(spec: ContainerSpec): Promise<number> {
    const labels = Object.entries(spec.labels).flatMap(([k, v]) => ["--label", `${k}=${v}`]);
    const made = await this.docker.call(["volume", "create", ...labels, this.pair.volume]);
    if (made.code !== 0) {
      this.refusal = made.stderr.trim() || `docker volume create exited with status ${made.code}`;
      return 125;
    }
    const task = startContainer(this.docker, spec, this.onOutput, this.pair);
    this.task = task;
    let ended = false;
    const status = task.done.then((code) => {
      ended = true;
      return { code };
    });
    if ((await this.ready(() => ended)) && !this.stopping) {
      const taskId = task.id() as string;
      const sidecar = launch(this.docker, (cidfile) => sidecarArgs(spec, this.pair, taskId, cidfile), this.onOutput);
      this.sidecar = sidecar;
      void sidecar.done.then(async () => {
        const refused = sidecar.startError();
        if (refused) this.onOutput(`${msg.sidecarNotStarted(refused)}\n`);
        // The task's entrypoint stops waiting for a supervisor that will never connect.
        await this.docker.call(["kill", "--signal", "SIGUSR1", taskId]);
      });
    }
    const { code } = await status;
    this.refusal = task.startError();
    return code;
  }

  /** Whether the task container's control socket came (its set-up is done) before it ended. */
  private async ready(ended: () => boolean): Promise<boolean> {
    const control = join(this.pair.sockets, SIDECAR_SOCKETS.control);
    while (!ended()) {
      if (existsSync(control) && this.task?.id()) return true;
      await Bun.sleep(READY_POLL_MS);
    }
    return false;
  }

  id(): string | undefined {
    return this.task?.id();
  }

  startError(): string | undefined {
    return this.refusal;
  }

  /** Stops the task container (its entrypoint then kills the agent's processes: the sidecar) and the sidecar. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([this.task && stopContainer(this.docker, this.task), this.sidecar && stopContainer(this.docker, this.sidecar, 5)]);
  }

  /** Both containers (unless kept), the source volume and the socket folder; warnings. */
  async cleanup(keep: boolean): Promise<string[]> {
    const warnings = [...(await teardown(this.docker, this.sidecar?.id(), keep)), ...(await teardown(this.docker, this.task?.id(), keep))];
    if (!keep) {
      const removed = await this.docker.call(["volume", "rm", "--force", this.pair.volume]);
      if (removed.code !== 0) warnings.push(`Could not remove volume ${this.pair.volume}: ${removed.stderr.trim()}`);
    }
    rmSync(this.pair.sockets, { recursive: true, force: true });
    return warnings;
  }
}
