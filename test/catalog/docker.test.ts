/**
 * catalog/Dockerfile with the real engine: build from the repository root, run with no network,
 * query the service from inside the container with the binary itself, stop it gracefully.
 * Skipped when no Docker engine answers (setup/docker-engine.sh start provides one).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { repoRoot, ssebench } from "../helpers/cli.ts";

setDefaultTimeout(300_000);
const docker = (args: string[]) => Bun.spawnSync(["docker", ...args], { cwd: repoRoot, stdout: "pipe", stderr: "pipe" });
const engineAnswers = docker(["info", "--format", "{{.ServerVersion}}"]).exitCode === 0;
const IMAGE = "ssebench-catalog:test";
const OFFLINE_ROOT = "ssebench/debian-root:bookworm";
// No registry is reachable (and none may be contacted): build only on the locally imported root.
const offlineRoot = engineAnswers && docker(["image", "inspect", OFFLINE_ROOT]).exitCode === 0;
const containers: string[] = [];
// In CI's engine step a missing root image is a broken set-up, not a reason to skip.
if (process.env.SSEBENCH_E2E === "1" && !offlineRoot) {
  throw new Error(`SSEBENCH_E2E=1 but ${engineAnswers ? `the root image ${OFFLINE_ROOT} is missing (run setup/debian-root-image.sh)` : "no Docker engine answers (run setup/docker-engine.sh start)"}`);
}

afterAll(() => {
  for (const id of containers) docker(["rm", "-f", id]);
  if (offlineRoot) docker(["rmi", IMAGE]);
});

describe.skipIf(!offlineRoot)("catalog/Dockerfile (needs a Docker engine and setup/debian-root-image.sh)", () => {
  test("builds from the repository root, serves the committed dataset, stops cleanly on SIGTERM", async () => {
    const build = docker(["build", "-q", "-f", "catalog/Dockerfile", "--build-arg", `BASE=${OFFLINE_ROOT}`, "-t", IMAGE, "."]);
    expect(build.exitCode === 0 ? "" : build.stderr.toString()).toBe("");

    const run = docker(["run", "-d", "--network", "none", IMAGE]);
    expect(run.exitCode).toBe(0);
    const id = run.stdout.toString().trim();
    containers.push(id);
    let logs = "";
    for (let i = 0; i < 120 && !logs.includes("serving"); i++) {
      await Bun.sleep(250);
      logs = docker(["logs", id]).stdout.toString();
    }
    expect(logs).toContain("from /srv/manifest.json on http://0.0.0.0:8080");

    const inside = docker(["exec", id, "ssebench", "tasks", "list", "--json", "--catalog", "http://127.0.0.1:8080"]);
    expect(inside.stderr.toString()).toBe("");
    const onHost = await ssebench(["tasks", "list", "--json"]);
    expect(inside.stdout.toString()).toBe(onHost.stdout);

    expect(docker(["exec", id, "id", "-u"]).stdout.toString().trim()).toBe("65534");
    expect(docker(["exec", id, "sh", "-c", "command -v node || command -v bun"]).exitCode).not.toBe(0);

    expect(docker(["stop", "-t", "20", id]).exitCode).toBe(0);
    // 0, not 137: the service handled SIGTERM as PID 1 and drained instead of being killed.
    expect(docker(["inspect", "-f", "{{.State.ExitCode}}", id]).stdout.toString().trim()).toBe("0");
  });
});
