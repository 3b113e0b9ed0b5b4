/**
 * What `ssebench view` serves: the sources named on its command line (as `results` takes them: a
 * job name under <results>/jobs/, a job folder, or a folder of runs), each under a results folder
 * (a root). A folder's jobs (<folder>/jobs/*) are listed again on every look, so a job started
 * after the viewer shows up. Runs are only ever looked up inside a root, by a path that resolves
 * to itself (no symlink anywhere on the way).
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readdirSync } from "node:fs";
import { UserError } from "../errors.ts";
import { JOBS_DIR } from "../jobs/store.ts";
import { loadSource, type TrialRow } from "../results/load.ts";
import { JobState } from "./job-state.ts";
import { msg } from "./messages.ts";

export interface Root {
  id: number;
  /** the results folder, symlinks resolved once at start */
  dir: string;
}

export interface Folder {
  key: string;
  dir: string;
  root: Root;
}

/** Folder scans are repeated at most this often (a folder of 10,000 runs takes ~0.3 s). */
const SCAN_TTL_MS = 3000;

export class Library {
  readonly roots: Root[] = [];
  readonly folders: Folder[] = [];
  private readonly namedJobs: JobState[] = [];
  private readonly jobsByDir = new Map<string, JobState>();
  private readonly scans = new Map<string, { at: number; rows: TrialRow[] }>();

  constructor(sources: readonly string[], results: string) {
    for (const arg of sources.length > 0 ? sources : [results]) this.add(arg, results);
  }

  private rootOf(dir: string): Root {
    const real = realpathSync(dir);
    let root = this.roots.find((r) => r.dir === real);
    if (!root) this.roots.push((root = { id: this.roots.length, dir: real }));
    return root;
  }

  private jobAt(dir: string): JobState {
    const real = realpathSync(dir);
    let job = this.jobsByDir.get(real);
    if (!job) {
      job = new JobState(real.split("/").pop() as string, real, this.rootOf(dirname(dirname(real))).dir);
      this.jobsByDir.set(real, job);
    }
    return job;
  }

  private add(arg: string, results: string): void {
    const named = resolve(results, JOBS_DIR, arg);
    if (!arg.includes("/") && existsSync(join(named, "job.json"))) return void this.namedJobs.push(this.jobAt(named));
    const dir = resolve(arg);
    if (existsSync(join(dir, "job.json"))) return void this.namedJobs.push(this.jobAt(dir));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(msg.notFound(arg));
    const root = this.rootOf(dir);
    if (!this.folders.some((f) => f.dir === root.dir)) this.folders.push({ key: String(this.folders.length), dir: root.dir, root });
  }

  /** Every job: those named, then those in each folder's jobs/ (listed now), each once. */
  jobs(): JobState[] {
    const seen = new Set<JobState>(this.namedJobs);
    const out = [...this.namedJobs];
    for (const f of this.folders) {
      let names: string[] = [];
      try {
        names = readdirSync(join(f.dir, JOBS_DIR), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
          .sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const dir = join(f.dir, JOBS_DIR, name);
        if (!existsSync(join(dir, "job.json"))) continue;
        const job = this.jobAt(dir);
        if (!seen.has(job)) {
          seen.add(job);
          out.push(job);
        }
      }
    }
    return out;
  }

  /** A job by its key (its folder's name; a second job of the same name gets `~2`, …). */
  jobKeys(): Map<string, JobState> {
    const keys = new Map<string, JobState>();
    for (const job of this.jobs()) {
      let key = job.name;
      for (let n = 2; keys.has(key); n++) key = `${job.name}~${n}`;
      keys.set(key, job);
    }
    return keys;
  }

  /** The runs below a folder (as `ssebench results DIR` finds them), scanned again when older than a few seconds. */
  folderRows(folder: Folder): TrialRow[] {
    const cached = this.scans.get(folder.dir);
    if (cached && Date.now() - cached.at < SCAN_TTL_MS) return cached.rows;
    let rows: TrialRow[] = [];
    try {
      rows = loadSource(folder.dir, folder.dir, () => {}).rows;
    } catch {
      rows = [];
    }
    this.scans.set(folder.dir, { at: Date.now(), rows });
    return rows;
  }

  root(id: string): Root | undefined {
    return /^\d+$/.test(id) ? this.roots[Number(id)] : undefined;
  }

  /** The root and relative path of a run folder the library knows of, for links. */
  locate(runDir: string): { root: Root; rel: string } | undefined {
    for (const root of this.roots) {
      if (runDir.startsWith(`${root.dir}/`)) return { root, rel: runDir.slice(root.dir.length + 1) };
    }
    return undefined;
  }
}
