/** The run container's client side: what a refused `docker run` shows. The real engine is in test/e2e. */
import { describe, expect, test } from "bun:test";
import { bindMount, runArgs, startContainer } from "../../../src/run/backends/container.ts";
import { localCaseTag } from "../../../src/run/layers/case-image.ts";
import type { Docker, DockerCallOptions, DockerResult } from "../../../src/run/backends/docker.ts";
import { refComponent } from "../../../src/run/layers/layers.ts";
import { agentTag, toolTag } from "../../../src/run/layers/tool-layers.ts";

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
        runDir: "/tmp/r",
        archiveDir: "/tmp/r/archive",
        env: {},
        labels: {},
        resources: { cpus: 64, memory: "4g", pids_limit: 10, disk: "20g" },
        platform: undefined,
        referencePatch: undefined,
        command: ["echo"],
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
        runDir: "/r:1",
        archiveDir: "/r:1/archive",
        env: {},
        labels: {},
        resources: { cpus: 1, memory: "1g", pids_limit: 10, disk: "20g" },
        platform: undefined,
        referencePatch: "/tmp/p.diff",
        command: ["echo"],
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

describe("isolation flags (exact arguments)", () => {
  test("docker run: init, no network, least privilege, pinned entrypoint and user, limits, mounts, labels, the agent's argv", () => {
    const args = runArgs(
      {
        image: "sha256:agent",
        runDir: "/res/run",
        archiveDir: "/res/run/archive",
        env: { SSE_ARCHIVE: "/tmp/sse-archive", TIMEOUT: "60" },
        labels: { "ssebench.run-id": "r1" },
        resources: { cpus: 2, memory: "4g", pids_limit: 512, disk: "20g" },
        platform: "linux/amd64",
        referencePatch: "/tmp/p.diff",
        command: ["bash", "-c", "echo 'a b'"],
      },
      "/tmp/cid",
    );
    expect(args).toEqual([
      "run", "--cidfile", "/tmp/cid", "--init", "--sig-proxy=false",
      "--platform", "linux/amd64",
      "--network", "none",
      "--security-opt", "no-new-privileges",
      "--cap-drop", "ALL",
      "--cap-add", "CHOWN", "--cap-add", "DAC_OVERRIDE", "--cap-add", "FOWNER", "--cap-add", "KILL",
      "--cap-add", "SETGID", "--cap-add", "SETUID",
      "--user", "0:0", "--entrypoint", "/usr/local/bin/ssebench-entrypoint", "--workdir", "/",
      "--cpus", "2", "--memory", "4g", "--memory-swap", "4g", "--pids-limit", "512",
      "-e", "SSE_ARCHIVE=/tmp/sse-archive", "-e", "TIMEOUT=60",
      "--mount", "type=bind,source=/res/run,target=/var/lib/ssebench/results",
      "--mount", "type=bind,source=/res/run/archive,target=/tmp/sse-archive",
      "--mount", "type=bind,source=/tmp/p.diff,target=/reference/patch.diff,readonly",
      "--label", "ssebench.run-id=r1",
      "sha256:agent", "--mode", "sandbox", "--", "bash", "-c", "echo 'a b'",
    ]);
  });

  test("a served model's run: the gateway folder mounted read-only, the agent store read-only at /opt/agent", () => {
    const args = runArgs(
      {
        image: "sha256:agent",
        runDir: "/res/run",
        archiveDir: "/res/run/archive",
        env: {},
        labels: {},
        resources: { cpus: 1, memory: "1g", pids_limit: 64, disk: "20g" },
        platform: undefined,
        referencePatch: undefined,
        modelDir: "/tmp/gw",
        agentStore: "ssebench-agent-a-0123456789abcdef",
        command: ["agent"],
      },
      "/tmp/cid",
    );
    expect(args).toEqual([
      "run", "--cidfile", "/tmp/cid", "--init", "--sig-proxy=false",
      "--network", "none",
      "--security-opt", "no-new-privileges",
      "--cap-drop", "ALL",
      "--cap-add", "CHOWN", "--cap-add", "DAC_OVERRIDE", "--cap-add", "FOWNER", "--cap-add", "KILL",
      "--cap-add", "SETGID", "--cap-add", "SETUID",
      "--user", "0:0", "--entrypoint", "/usr/local/bin/ssebench-entrypoint", "--workdir", "/",
      "--cpus", "1", "--memory", "1g", "--memory-swap", "1g", "--pids-limit", "64",
      "--mount", "type=bind,source=/res/run,target=/var/lib/ssebench/results",
      "--mount", "type=bind,source=/res/run/archive,target=/tmp/sse-archive",
      "--mount", "type=bind,source=/tmp/gw,target=/run/ssebench,readonly",
      "--mount", "type=volume,source=ssebench-agent-a-0123456789abcdef,target=/opt/agent,readonly,volume-nocopy",
      "sha256:agent", "--mode", "sandbox", "--", "agent",
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
