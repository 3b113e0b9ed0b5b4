/** The run container's client side: what a refused `docker run` shows. The real engine is in test/e2e. */
import { describe, expect, test } from "bun:test";
import { bindMount, runArgs, startContainer } from "../../src/run/container.ts";
import { localCaseTag } from "../../src/run/case-image.ts";
import type { Docker, DockerCallOptions, DockerResult } from "../../src/run/docker.ts";
import { refComponent } from "../../src/run/layers.ts";
import { agentTag, toolTag } from "../../src/run/tool-layers.ts";

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

  test("mounts are --mount binds: a ':' in a path is kept, ',' and '\"' are CSV-quoted", () => {
    expect(bindMount("/srv/a:b", "/var/lib/ssebench/results")).toBe("type=bind,source=/srv/a:b,target=/var/lib/ssebench/results");
    expect(bindMount('/srv/a,"b"', "/t", true)).toBe('type=bind,"source=/srv/a,""b""",target=/t,readonly');
    const args = runArgs(
      {
        image: "img",
        network: "n",
        runDir: "/r:1",
        archiveDir: "/r:1/archive",
        env: {},
        labels: {},
        resources: { cpus: 1, memory: "1g", pids_limit: 10 },
        platform: undefined,
        referencePatch: "/tmp/p.diff",
      },
      "/tmp/cid",
    );
    expect(args).not.toContain("-v");
    expect(args.filter((a, i) => args[i - 1] === "--mount")).toEqual([
      "type=bind,source=/r:1,target=/var/lib/ssebench/results",
      "type=bind,source=/r:1/archive,target=/tmp/sse-archive",
      "type=bind,source=/tmp/p.diff,target=/reference/patch.diff,readonly",
    ]);
  });
});

describe("image names", () => {
  test("folder, task and agent names become valid image path components", () => {
    expect(refComponent("My DS+1")).toBe("my-ds-1");
    expect(refComponent("Odd.Task_1")).toBe("odd.task_1");
    expect(refComponent("a..b")).toBe("a-b");
    expect(refComponent("t-")).toBe("t");
    expect(refComponent("a__b--c")).toBe("a__b--c");
    expect(refComponent("htmlesc-quote-overflow")).toBe("htmlesc-quote-overflow");
    const reg = "ghcr.io/x/ssebench";
    // A dataset folder with a space and '+' used to give a tag docker refuses ("invalid reference format").
    expect(localCaseTag(reg, "My DS+1", "a..b")).toBe(`${reg}/case/my-ds-1/a-b:latest`);
    expect(toolTag(reg, "a..b")).toMatch(new RegExp(`^${reg}/tool/a-b:`));
    expect(agentTag(reg, { name: "My Agent", version: "1.0.0" } as never, "T.")).toBe(`${reg}/agent-my-agent/t:1.0.0`);
  });
});
