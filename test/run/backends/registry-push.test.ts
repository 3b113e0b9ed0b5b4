import { describe, expect, test } from "bun:test";
import type { Docker, DockerResult } from "../../../src/run/backends/docker.ts";
import { registryMsg as m } from "../../../src/registry/messages.ts";
import { checkedRegistry, pushedDigest, RegistryPusher, splitTag } from "../../../src/run/backends/registry-push.ts";

const DIGEST = `sha256:${"ab".repeat(32)}`;

/** The engine's neighbour: answers inspect, tag and push as a real engine does, and records the calls. */
function fakeDocker(push: (ref: string) => DockerResult = () => ({ code: 0, stdout: `v1: digest: ${DIGEST} size: 528\n`, stderr: "" })) {
  const calls: string[][] = [];
  const docker: Docker = {
    call: async (args) => {
      calls.push([...args]);
      if (args[0] === "image") return args[4]?.startsWith("missing") ? { code: 1, stdout: "", stderr: "No such image" } : { code: 0, stdout: "sha256:1111\n", stderr: "" };
      if (args[0] === "tag") return { code: 0, stdout: "", stderr: "" };
      return push(args[1] as string);
    },
  };
  return { docker, calls };
}

describe("registry pushes", () => {
  test("the digest is the last one push printed", () => {
    const other = `sha256:${"cd".repeat(32)}`;
    expect(pushedDigest(`a: digest: ${other} size: 1\nb: digest: ${DIGEST} size: 2\n`)).toBe(DIGEST);
    expect(pushedDigest("The push refers to repository [x]\n")).toBeUndefined();
  });

  test("tags split after the last slash; registries are checked and lose a trailing slash", () => {
    expect(splitTag("127.0.0.1:5000/tool/t:0.1.0")).toEqual(["127.0.0.1:5000/tool/t", "0.1.0"]);
    expect(splitTag("127.0.0.1:5000/tool/t")).toEqual(["127.0.0.1:5000/tool/t", "latest"]);
    expect(checkedRegistry("127.0.0.1:5000/")).toBe("127.0.0.1:5000");
    expect(checkedRegistry("ghcr.io/42-b3yond-6ug/ssebench")).toBe("ghcr.io/42-b3yond-6ug/ssebench");
    expect(() => checkedRegistry("http://127.0.0.1:5000")).toThrow(m.badRegistry("http://127.0.0.1:5000"));
  });

  test("one push per target and image, shared by concurrent callers; a pinned reference back", async () => {
    const { docker, calls } = fakeDocker();
    const p = new RegistryPusher(docker, "127.0.0.1:5000");
    const refs = await Promise.all([p.push("local/tool:1", "tool/t", "1"), p.push("local/tool:1", "tool/t", "1")]);
    expect(refs).toEqual([`127.0.0.1:5000/tool/t@${DIGEST}`, `127.0.0.1:5000/tool/t@${DIGEST}`]);
    expect(calls.filter((c) => c[0] === "push")).toEqual([["push", "127.0.0.1:5000/tool/t:1"]]);
    expect(calls.find((c) => c[0] === "tag")).toEqual(["tag", "sha256:1111", "127.0.0.1:5000/tool/t:1"]);
  });

  test("a run's layers keep their local paths under the registry", async () => {
    const { docker } = fakeDocker();
    const p = new RegistryPusher(docker, "reg.test:5000");
    const refs = await p.pushRunLayers({ tool: "ghcr.io/o/s/tool/t:0.1.0", agent: "ghcr.io/o/s/agent-x/t:0.1.0" }, "ghcr.io/o/s");
    expect(refs).toEqual({ tool: `reg.test:5000/tool/t@${DIGEST}`, agent: `reg.test:5000/agent-x/t@${DIGEST}` });
  });

  test("the references name the registry as the nodes reach it", async () => {
    const { docker, calls } = fakeDocker();
    const p = new RegistryPusher(docker, "127.0.0.1:5000", { pullFrom: "10.99.0.254:5000" });
    expect(await p.push("sha256:1111", "agent/t", "abc")).toBe(`10.99.0.254:5000/agent/t@${DIGEST}`);
    expect(calls.find((c) => c[0] === "push")).toEqual(["push", "127.0.0.1:5000/agent/t:abc"]);
  });

  test("failures are one line each, and a failed push is tried again next time", async () => {
    let fail = true;
    const { docker } = fakeDocker(() => (fail ? { code: 1, stdout: "", stderr: "unauthorized: no\n" } : { code: 0, stdout: "done\n", stderr: "" }));
    const p = new RegistryPusher(docker, "r.test");
    await expect(p.push("local/a:1", "a", "1")).rejects.toThrow(m.pushFailed("r.test/a:1", "unauthorized: no"));
    fail = false;
    await expect(p.push("local/a:1", "a", "1")).rejects.toThrow(m.noDigest("r.test/a:1"));
    await expect(p.push("missing:1", "a", "1")).rejects.toThrow(m.noLocalImage("missing:1"));
  });
});
