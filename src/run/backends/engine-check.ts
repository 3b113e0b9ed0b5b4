/**
 * What the engine accepts, asked before anything is built (`docker info`): --cpus from 0.01 to its
 * CPUs, --memory from 6 MB (docker's floor) to its machine's memory, and enough free space on its
 * disk (DockerRootDir) for the builds. A refusal here is one line, and no run folder is made.
 */
import { existsSync, statfsSync } from "node:fs";
import { UserError } from "../../errors.ts";
import type { Docker } from "./docker.ts";
import { msg } from "../messages.ts";
import type { Resources } from "../../formats/run/summary.ts";

export interface EngineFacts {
  cpus: number;
  memoryBytes: number;
  rootDir: string;
}

/** docker's own lower limits (`docker run` refuses below them). */
export const MIN_CPUS = 0.01;
export const MIN_MEMORY_BYTES = 6 * 1024 * 1024;
/** Free space below which `run` does not start building (override: SSEBENCH_MIN_FREE_GB, 0 = no check). */
export const DEFAULT_MIN_FREE_GB = 5;

/** NCPU, MemTotal and DockerRootDir of the engine; undefined when it does not answer them. */
export async function engineFacts(docker: Docker): Promise<EngineFacts | undefined> {
  const r = await docker.call(["info", "--format", "{{json .NCPU}}\t{{json .MemTotal}}\t{{json .DockerRootDir}}"]);
  if (r.code !== 0) return undefined;
  const [cpus, memory, root] = r.stdout.trim().split("\t");
  try {
    const facts = { cpus: Number(JSON.parse(cpus ?? "")), memoryBytes: Number(JSON.parse(memory ?? "")), rootDir: String(JSON.parse(root ?? "")) };
    return facts.cpus > 0 && facts.memoryBytes > 0 ? facts : undefined;
  } catch {
    return undefined;
  }
}

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `512m` → bytes (the syntax options.ts accepted). */
export function memoryBytes(size: string): number {
  const m = /^([0-9]+)([bkmg]?)$/i.exec(size);
  return m ? Number(m[1]) * (UNITS[(m[2] ?? "").toLowerCase()] ?? 1) : Number.NaN;
}

export function checkResources(resources: Resources, facts: EngineFacts): void {
  if (resources.cpus < MIN_CPUS || resources.cpus > facts.cpus) throw new UserError(msg.cpusOutOfRange(resources.cpus, facts.cpus));
  const bytes = memoryBytes(resources.memory);
  if (bytes < MIN_MEMORY_BYTES) throw new UserError(msg.memoryTooSmall(resources.memory));
  if (bytes > facts.memoryBytes) throw new UserError(msg.memoryTooLarge(resources.memory, facts.memoryBytes));
}

/**
 * Free space on the engine's disk, when its root folder is on this machine (a remote engine's is
 * not ours to measure).
 */
export function checkFreeSpace(rootDir: string, env: NodeJS.ProcessEnv): void {
  const setting = env.SSEBENCH_MIN_FREE_GB?.trim();
  const minGb = setting ? Number(setting) : DEFAULT_MIN_FREE_GB;
  if (!(minGb >= 0)) throw new UserError(msg.minFreeSetting(setting ?? ""));
  if (minGb === 0 || !rootDir || !existsSync(rootDir)) return;
  let free: number;
  try {
    const s = statfsSync(rootDir);
    free = s.bavail * s.bsize;
  } catch {
    return;
  }
  if (free < minGb * 1e9) throw new UserError(msg.diskLow(rootDir, free, minGb));
}
