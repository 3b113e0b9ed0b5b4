/**
 * A sidecar trial's two `docker run` argvs, exactly: the task's container (the tool layer in
 * `--mode sidecar`, the source on the pair's volume and the socket folder mounted) and the agent's
 * beside it (its process namespace, no network, no capability, no-new-privileges, the run's uid,
 * the same limits, the shared mounts, the pinned entrypoint running `sidecar-agent`). Both run on a
 * real engine in test/e2e/sidecar.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { type ContainerSpec, runArgs } from "../../../src/run/backends/container.ts";
import { sidecarArgs } from "../../../src/run/backends/sidecar-pair.ts";

const spec: ContainerSpec = {
  image: "sha256:tool",
  runDir: "/res/run",
  archiveDir: "/res/run/archive",
  env: { SSE_ARCHIVE: "/tmp/sse-archive", SSE_MODEL_UID: "1000000042", SSE_RUNNER_UID: "1000000043", SSE_PLUGINS: "" },
  labels: { "ssebench.run-id": "r1" },
  resources: { cpus: 2, memory: "4g", pids_limit: 512, disk: "20g" },
  platform: undefined,
  referencePatch: undefined,
  command: [],
  modelDir: "/tmp/gw",
  sidecar: { image: "sha256:side", command: ["python3", "/opt/a.py"], source: "/src/htmlesc", entrypoint: "/opt/ssebench/ssebench-entrypoint" },
};
const pair = { volume: "ssebench-sidecar-abc", sockets: "/tmp/ssebench-sc-x" };

describe("sidecar mode: the two containers (exact arguments)", () => {
  test("the task's container: the sandbox's flags, the source volume at its path, the socket folder, --mode sidecar and no agent argv", () => {
    expect(runArgs(spec, "/tmp/cid", pair)).toEqual([
      "run", "--cidfile", "/tmp/cid", "--init", "--sig-proxy=false",
      "--network", "none",
      "--security-opt", "no-new-privileges",
      "--cap-drop", "ALL",
      "--cap-add", "CHOWN", "--cap-add", "DAC_OVERRIDE", "--cap-add", "FOWNER", "--cap-add", "KILL",
      "--cap-add", "SETGID", "--cap-add", "SETUID",
      "--user", "0:0", "--entrypoint", "/usr/local/bin/ssebench-entrypoint", "--workdir", "/",
      "--cpus", "2", "--memory", "4g", "--memory-swap", "4g", "--pids-limit", "512",
      "-e", "SSE_ARCHIVE=/tmp/sse-archive", "-e", "SSE_MODEL_UID=1000000042", "-e", "SSE_RUNNER_UID=1000000043", "-e", "SSE_PLUGINS=",
      "--mount", "type=bind,source=/res/run,target=/var/lib/ssebench/results",
      "--mount", "type=bind,source=/res/run/archive,target=/tmp/sse-archive",
      "--mount", "type=bind,source=/tmp/gw,target=/run/ssebench,readonly",
      "--mount", "type=volume,source=ssebench-sidecar-abc,target=/src/htmlesc",
      "--mount", "type=bind,source=/tmp/ssebench-sc-x,target=/run/ssebench-sidecar",
      "--label", "ssebench.run-id=r1",
      "sha256:tool", "--mode", "sidecar",
    ]);
  });

  test("the sidecar: in the task's process namespace, no network, no capability, the run's uid, the same limits, nothing of the task's but the tree", () => {
    expect(sidecarArgs(spec, pair, "cid-of-task", "/tmp/cid2")).toEqual([
      "run", "--cidfile", "/tmp/cid2", "--sig-proxy=false",
      "--pid", "container:cid-of-task",
      "--network", "none",
      "--security-opt", "no-new-privileges",
      "--cap-drop", "ALL",
      "--user", "1000000042:1000000042",
      "--entrypoint", "/usr/local/bin/ssebench-entrypoint", "--workdir", "/src/htmlesc",
      "--cpus", "2", "--memory", "4g", "--memory-swap", "4g", "--pids-limit", "512",
      "--mount", "type=volume,source=ssebench-sidecar-abc,target=/src/htmlesc,volume-nocopy",
      "--mount", "type=bind,source=/res/run/archive,target=/tmp/sse-archive",
      "--mount", "type=bind,source=/tmp/ssebench-sc-x,target=/run/ssebench-sidecar,readonly",
      "--mount", "type=bind,source=/opt/ssebench/ssebench-entrypoint,target=/usr/local/bin/ssebench-entrypoint,readonly",
      "--label", "ssebench.run-id=r1", "--label", "ssebench.sidecar=true",
      "sha256:side", "sidecar-agent", "--", "python3", "/opt/a.py",
    ]);
  });
});
