/**
 * A stand-in for the docker CLI (the orchestrator's neighbour) for unit tests: it keeps images with
 * labels, "builds" by recording the inputs label, and "runs" a container by writing the result.json
 * a scripted entrypoint would. The real engine is exercised by test/e2e.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Docker, DockerCallOptions, DockerResult } from "../../src/run/backends/docker.ts";
import type { Home } from "../../src/run/home.ts";
import { repoRoot } from "../helpers/cli.ts";

export interface FakeContainer {
  result?: unknown;
  exitCode?: number;
  oomKilled?: boolean;
  /** resolves when the container should finish (default: at once) */
  until?: Promise<void>;
  /** the engine refuses to start it: `docker run` exits 125 with this on stderr */
  refusal?: string;
}

export class FakeDocker implements Docker {
  readonly calls: string[][] = [];
  /** tag → { id, inputs, the agent store it marks } */
  readonly images = new Map<string, { id: string; inputs: string; store?: string }>();
  /** volumes by name → labels */
  readonly volumes = new Map<string, string[]>();
  container: FakeContainer = {};
  /** what `docker image inspect --format {{json .Config}}` shows for every image */
  config: Record<string, unknown> = { Cmd: ["echo", "fake"], Env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"] };
  /** what `docker info` answers (NCPU, MemTotal, DockerRootDir); undefined: the call fails */
  info: { cpus: number; memoryBytes: number; rootDir: string } | undefined = { cpus: 64, memoryBytes: 64 * 1024 ** 3, rootDir: "" };
  stopped = false;
  /** does the engine take `--storage-opt size=` (a storage quota)? Like overlay2 on ext4: no */
  quota = false;
  private builds = 0;
  private stopContainer: (() => void) | undefined;

  verbs(): string[] {
    return this.calls.map((c) => (["image", "container", "network"].includes(c[0] ?? "") ? `${c[0]} ${c[1]}` : (c[0] ?? "")));
  }

  async call(args: readonly string[], opts: DockerCallOptions = {}): Promise<DockerResult> {
    this.calls.push([...args]);
    const ok = (stdout = ""): DockerResult => ({ code: 0, stdout, stderr: "" });
    const [verb, sub] = args;
    if (verb === "image" && sub === "inspect" && args[3] === "{{json .Config}}") {
      return ok(args.slice(4).map(() => `${JSON.stringify(this.config)}\n`).join(""));
    }
    if (verb === "image" && sub === "inspect") {
      const refs = args.slice(4);
      const lines = refs.filter((r) => this.images.has(r)).map((r) => {
        const img = this.images.get(r) as { id: string; inputs: string; store?: string };
        return `${img.id}\t${img.inputs}\t${JSON.stringify([r])}\t${JSON.stringify(this.config.Cmd ?? null)}\t${img.store ?? "<no value>"}`;
      });
      return { code: lines.length === refs.length ? 0 : 1, stdout: lines.map((l) => `${l}\n`).join(""), stderr: "" };
    }
    if (verb === "build") {
      const label = args[args.indexOf("--label") + 1] as string;
      const tag = args[args.indexOf("-t") + 1] as string;
      const id = `sha256:built${++this.builds}`;
      writeFileSync(args[args.indexOf("--iidfile") + 1] as string, id);
      opts.onOutput?.("Step 1/1 : FROM x\n", "stdout");
      const store = args.find((a, i) => args[i - 1] === "--label" && a.startsWith("ssebench.agent-store="));
      this.images.set(tag, { id, inputs: label.split("=")[1] as string, ...(store ? { store: store.split("=")[1] } : {}) });
      return ok();
    }
    if (verb === "volume") {
      const name = args.at(-1) as string;
      if (sub === "inspect") return this.volumes.has(name) ? ok(`${name}\n`) : { code: 1, stdout: "", stderr: `Error: No such volume: ${name}` };
      if (sub === "create") this.volumes.set(name, args.filter((_, i) => args[i - 1] === "--label"));
      if (sub === "rm") this.volumes.delete(name);
      return ok(`${name}\n`);
    }
    if (verb === "image" && sub === "rm") {
      for (const ref of args.slice(2)) this.images.delete(ref);
      return ok();
    }
    if (verb === "info") {
      if (!this.info) return { code: 1, stdout: "", stderr: "info failed" };
      return ok(`${this.info.cpus}\t${this.info.memoryBytes}\t${JSON.stringify(this.info.rootDir)}\n`);
    }
    if (verb === "container" && sub === "create" && args.includes("--storage-opt")) {
      if (this.quota) return ok("probe123\n");
      return { code: 125, stdout: "", stderr: "Error response from daemon: --storage-opt is supported only for overlay over xfs with 'pquota' mount option\n" };
    }
    if (verb === "run" && this.container.refusal) {
      return { code: 125, stdout: "", stderr: `docker: ${this.container.refusal}\nSee 'docker run --help'.\n` };
    }
    if (verb === "run") {
      writeFileSync(args[args.indexOf("--cidfile") + 1] as string, "cid123");
      const mount = args.find((a) => a.endsWith(",target=/var/lib/ssebench/results")) as string;
      const runDir = mount.slice("type=bind,source=".length, -",target=/var/lib/ssebench/results".length);
      await Promise.race([this.container.until ?? Promise.resolve(), new Promise<void>((r) => (this.stopContainer = r))]);
      if (!this.stopped && this.container.result !== undefined) {
        writeFileSync(join(runDir, "result.json"), JSON.stringify(this.container.result));
      }
      opts.onOutput?.("container output\n", "stdout");
      return { code: this.stopped ? 143 : (this.container.exitCode ?? 0), stdout: "", stderr: "" };
    }
    if (verb === "pull" || verb === "tag") {
      const ref = args[verb === "pull" ? 1 : 2] as string;
      this.images.set(ref, { id: "sha256:pulled", inputs: "" });
      return ok();
    }
    if (verb === "stop") {
      this.stopped = true;
      this.stopContainer?.();
      return ok();
    }
    if (verb === "container" && sub === "inspect") {
      const exit = this.stopped ? 143 : (this.container.exitCode ?? 0);
      return ok(JSON.stringify({ ExitCode: exit, OOMKilled: Boolean(this.container.oomKilled), StartedAt: "2026-01-01T00:00:00.5Z", FinishedAt: "2026-01-01T00:00:02Z" }));
    }
    return ok();
  }
}

export const passedResult = {
  patch_result: {
    status: "passed",
    build_success: true,
    pov_passed: 1,
    pov_total: 1,
    func_test_success: true,
    intent_test_success: null,
    error_msg: null,
    error_log: null,
    error_type: null,
    checks: ["build", "poc", "function_test"].map((check) => ({
      check,
      poc: check === "poc" ? "pocs/1" : null,
      tree: "patched",
      status: "passed",
      exit_code: 0,
      duration_seconds: 0.1,
      log: `grading/${check}.log`,
    })),
  },
  runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: false, agent_exit_code: 0 },
};

/** The checkout as the ssebench home, with a stand-in entrypoint binary written into `scratch`. */
export function checkoutHome(scratch: string): Home {
  const entrypointBinary = join(scratch, "ssebench-entrypoint");
  writeFileSync(entrypointBinary, "#!/bin/sh\n");
  return {
    root: repoRoot,
    agentsDir: join(repoRoot, "agents"),
    sandboxDockerfile: join(repoRoot, "images", "sandbox", "Dockerfile"),
    pluginsDir: join(repoRoot, "runtime", "plugins"),
    entrypointBinary,
  };
}
