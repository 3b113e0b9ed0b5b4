/** The run container's client side: what a refused `docker run` shows. The real engine is in test/e2e. */
import { describe, expect, test } from "bun:test";
import { startContainer } from "../../src/run/container.ts";
import type { Docker, DockerCallOptions, DockerResult } from "../../src/run/docker.ts";

/** Streams its stderr through onOutput and also returns it, as DockerCli does. */
class RefusingDocker implements Docker {
  async call(_args: readonly string[], opts: DockerCallOptions = {}): Promise<DockerResult> {
    const stderr = "docker: Error response from daemon: Range of CPUs is from 0.01 to 2.00.\n";
    opts.onOutput?.(stderr, "stderr");
    return { code: 125, stdout: "", stderr };
  }
}

describe("startContainer", () => {
  test("a docker run that never starts a container shows docker's message once", async () => {
    const shown: string[] = [];
    const running = startContainer(
      new RefusingDocker(),
      {
        image: "sha256:x",
        network: "n",
        runDir: "/tmp/r",
        archiveDir: "/tmp/r/archive",
        env: {},
        labels: {},
        resources: { cpus: 64, memory: "4g", pids_limit: 10 },
        platform: undefined,
        referencePatch: undefined,
      },
      (chunk) => shown.push(chunk),
    );
    expect(await running.done).toBe(125);
    expect(running.id()).toBeUndefined();
    expect(shown.join("")).toBe("docker: Error response from daemon: Range of CPUs is from 0.01 to 2.00.\n");
  });
});
