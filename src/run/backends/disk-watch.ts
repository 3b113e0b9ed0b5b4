/**
 * The container's writable layer bounded (`--disk`, docs/backends.md "Disk"): a storage quota
 * (`docker run --storage-opt size=`) where the engine allows one (overlay2 on xfs with pquota,
 * btrfs, zfs…; asked once per backend by creating a container with it), else a watch that reads
 * the layer's size (`docker container inspect --size`: SizeRw, apparent sizes) a few seconds after
 * the start and then every 30 s, and stops the trial once it is past the bound: the agent's
 * failure (record.ts). The size at the end is reported in summary.json (`disk_usage.container_bytes`).
 */
import type { Docker } from "./docker.ts";

/** When the watch reads the layer's size: soon after the start (a quick flood), then steadily. */
export const WATCH_FIRST_MS = 5_000;
export const WATCH_EVERY_MS = 30_000;

/** Bytes of a docker size (512m, 4g, 20g; k/m/g/t are powers of 1024). */
export function sizeBytes(size: string): number {
  const m = /^([0-9]+)([bkmgt]?)$/i.exec(size);
  if (!m) return 0;
  const unit = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Number(m[1]) * unit;
}

/** The layer's size of a container (SizeRw), undefined when the engine does not say. */
export async function layerBytes(docker: Docker, id: string): Promise<number | undefined> {
  const r = await docker.call(["container", "inspect", "--size", "--format", "{{.SizeRw}}", id]);
  const n = Number(r.stdout.trim());
  return r.code === 0 && /^[0-9]+$/.test(r.stdout.trim()) ? n : undefined;
}

/**
 * Whether the engine takes a storage quota for containers of `image`: a container created with
 * one (and removed at once). An engine that refuses (overlay2 on ext4: "--storage-opt is
 * supported only for overlay over xfs with 'pquota' mount option") gets the watch instead.
 */
export async function quotaSupported(docker: Docker, image: string): Promise<boolean> {
  const r = await docker.call(["container", "create", "--storage-opt", "size=1g", "--network", "none", "--label", "ssebench.probe=disk-quota", image]);
  if (r.code !== 0) return false;
  await docker.call(["rm", "--force", r.stdout.trim()]);
  return true;
}

export interface DiskWatch {
  /** the layer's size that made the watch stop the trial, if it did */
  exceeded(): number | undefined;
  /** stops watching (the trial is done) */
  end(): void;
}

/**
 * Reads the layer's size of the container `id()` names (once it has one) until `end`; past
 * `limitBytes` it calls `stop` once and remembers the size.
 */
export function watchDisk(docker: Docker, id: () => string | undefined, limitBytes: number, stop: () => Promise<void>, timing = { firstMs: WATCH_FIRST_MS, everyMs: WATCH_EVERY_MS }): DiskWatch {
  let over: number | undefined;
  let ended = false;
  let timer: Timer | undefined;
  const check = async () => {
    const container = id();
    const bytes = container ? await layerBytes(docker, container) : undefined;
    if (ended) return;
    if (bytes !== undefined && bytes > limitBytes) {
      over = bytes;
      await stop();
      return;
    }
    timer = setTimeout(() => void check(), timing.everyMs);
  };
  timer = setTimeout(() => void check(), timing.firstMs);
  return {
    exceeded: () => over,
    end: () => {
      ended = true;
      clearTimeout(timer);
    },
  };
}
