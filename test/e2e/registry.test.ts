/**
 * Images through a registry, for real: Debian's docker-registry on loopback (setup/registry.sh),
 * the shared engine pushing to it over plain HTTP (127.0.0.0/8 is an insecure registry by
 * default), `dataset publish` writing records and pinning digests in images.lock.json, and the
 * push helper of a job's layers returning references the registry serves by digest.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REGISTRY, normaliseRegistry } from "../../src/catalog/image-refs.ts";
import { localCaseTag } from "../../src/run/layers/case-image.ts";
import { DockerCli, type Docker } from "../../src/run/backends/docker.ts";
import { registryMsg as m } from "../../src/registry/messages.ts";
import { RegistryPusher } from "../../src/run/backends/registry-push.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { demoDir, docker, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(600_000);
const work = tempDir("push-e2e-registry-");
const registryDir = join(work.path, "registry");
let registry = "";
const REVISION = "0123456789abcdef0123456789abcdef01234567";

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  return r.stdout.toString().trim();
}

/** What the registry itself serves for `repo` at `reference` (HTTP status). */
async function manifestStatus(repo: string, reference: string): Promise<number> {
  const accept = "application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json";
  const r = await fetch(`http://${registry}/v2/${repo}/manifests/${reference}`, { method: "HEAD", headers: { accept } });
  return r.status;
}

beforeAll(() => {
  if (E2E) registry = sh(["bash", join(repoRoot, "setup/registry.sh"), "start", registryDir]);
});
afterAll(() => {
  if (E2E) Bun.spawnSync(["bash", join(repoRoot, "setup/registry.sh"), "stop", registryDir]);
  // Only the tags these tests made: the images stay (other tags hold them).
  const ours = docker(["images", "--format", "{{.Repository}}:{{.Tag}}"]).split("\n").filter((t) => registry && t.startsWith(`${registry}/`));
  if (ours.length > 0) docker(["rmi", ...ours]);
  work.cleanup();
});

describe.skipIf(!E2E)(`images through a registry${SKIP_REASON}`, () => {
  test("the engine accepts the loopback registry as insecure", () => {
    expect(docker(["info", "--format", "{{json .RegistryConfig.InsecureRegistryCIDRs}}"])).toContain("127.0.0.0/8");
    expect(registry).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  test("dataset publish --unverified pushes the case image under both tags, writes the record and pins the digest", async () => {
    const dataset = join(work.path, "ds", "demo");
    cpSync(demoDir, dataset, { recursive: true });
    const task = "htmlesc-quote-overflow";
    const r = await ssebench(["dataset", "publish", task, "--dir", dataset, "--registry", `${registry}/`, "--revision", REVISION, "--unverified", "-o", join(work.path, "out")]);
    expect(r.stderr).not.toContain("internal error");
    expect(r.exitCode).toBe(0);
    const record = JSON.parse(readFileSync(join(work.path, "out", "published", `${task}.json`), "utf8"));
    expect(Object.keys(record)).toEqual(["task", "dataset", "version", "image", "tags", "digest", "files_sha256", "revision"]);
    expect(record).toMatchObject({ task, dataset: "demo", version: "demo-v1", image: `case/demo/${task}`, tags: ["demo-v1-0123456", "demo-v1"], revision: REVISION });
    expect(record.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.stdout.split("\n")[0]).toBe(m.published(`${registry}/case/demo/${task}`, record.digest, record.tags));
    const lock = JSON.parse(readFileSync(join(dataset, "images.lock.json"), "utf8"));
    expect(lock.images[task]).toEqual({ digest: record.digest, files_sha256: record.files_sha256, revision: REVISION });
    const check = await ssebench(["dataset", "lock", dataset, "--check"]);
    expect(check.exitCode).toBe(0);
    expect(await manifestStatus(`case/demo/${task}`, record.digest)).toBe(200);
    expect(await manifestStatus(`case/demo/${task}`, "demo-v1")).toBe(200);
    // The lock's pin is what `run` pulls: the digest reference resolves on the engine.
    const pulled = Bun.spawnSync(["docker", "pull", `${registry}/case/demo/${task}@${record.digest}`], { stdout: "pipe", stderr: "pipe" });
    expect(pulled.exitCode).toBe(0);
  });

  test("dataset publish without a verdict refuses the task in the reference's words", async () => {
    const r = await ssebench(["dataset", "publish", "fixedbuf-extend-overflow", "--dir", demoDir, "--registry", registry, "--revision", REVISION, "-o", join(work.path, "none")]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe(m.noVerdict("fixedbuf-extend-overflow", join(work.path, "none", "tasks")));
  });

  test("a job's tool and agent layers are pushed once each and pinned by digest", async () => {
    let pushes = 0;
    const real = new DockerCli();
    const counting: Docker = {
      call: (args, opts) => {
        if (args[0] === "push") pushes++;
        return real.call(args, opts);
      },
    };
    const pusher = new RegistryPusher(counting, registry);
    // Two local tags of existing images stand in for a tool and an agent layer.
    const build = "push-build.local";
    // The case image the publish test built (or found): its blobs are in the registry already.
    const caseTag = localCaseTag(normaliseRegistry(process.env.SSEBENCH_REGISTRY || DEFAULT_REGISTRY), "demo", "htmlesc-quote-overflow");
    expect(docker(["image", "inspect", "--format", "{{.Id}}", caseTag])).toMatch(/^sha256:/);
    docker(["tag", caseTag, `${build}/tool/push-task:0.1.0`]);
    docker(["tag", caseTag, `${build}/agent-push/push-task:0.1.0`]);
    try {
      const layers = { tool: `${build}/tool/push-task:0.1.0`, agent: `${build}/agent-push/push-task:0.1.0` };
      const [a, b] = await Promise.all([pusher.pushRunLayers(layers, build), pusher.pushRunLayers(layers, build)]);
      expect(a).toEqual(b as typeof a);
      expect(pushes).toBe(2);
      expect(a.tool).toMatch(new RegExp(`^${registry.replace(/\./g, "\\.")}/tool/push-task@sha256:[0-9a-f]{64}$`));
      expect(a.agent).toMatch(/\/agent-push\/push-task@sha256:[0-9a-f]{64}$/);
      for (const ref of [a.tool, a.agent]) {
        const [repo, digest] = ref.slice(registry.length + 1).split("@");
        expect(await manifestStatus(repo as string, digest as string)).toBe(200);
      }
      await expect(pusher.push("push-build.local/none:1", "none", "1")).rejects.toThrow(m.noLocalImage("push-build.local/none:1"));
    } finally {
      docker(["rmi", `${build}/tool/push-task:0.1.0`, `${build}/agent-push/push-task:0.1.0`]);
    }
  });
});
