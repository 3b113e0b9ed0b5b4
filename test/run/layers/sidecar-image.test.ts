/**
 * A sidecar agent's image (agent.yaml `mode: sidecar`): its Dockerfile's static check, the checks of
 * its bases against a stand-in engine (the neighbour), the inputs hash and the built image's CMD.
 * Real builds and runs: test/e2e/sidecar.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Docker, DockerResult } from "../../../src/run/backends/docker.ts";
import { checkAgentDockerfile } from "../../../src/run/layers/agent-dockerfile.ts";
import { type Agent, loadAgent, parseAgentYaml } from "../../../src/run/layers/agents.ts";
import { checkSidecarSource, sidecarCommand, sidecarImageSpec } from "../../../src/run/layers/sidecar-image.ts";
import { msg } from "../../../src/run/messages.ts";
import { repoRoot, tempDir } from "../../helpers/cli.ts";
import { writeFileSync, mkdirSync } from "node:fs";

const F = "agents/side/Dockerfile";
const checked = (text: string) => {
  try {
    return checkAgentDockerfile(text, F, "side", true);
  } catch (e) {
    return (e as Error).message;
  }
};

describe("a sidecar's Dockerfile", () => {
  test("any base named literally, several stages, COPY from an earlier stage: accepted, the bases returned with their lines", () => {
    const text = "FROM ssebench/debian-root:bookworm AS tools\nRUN true\nFROM base-generic-python:1.0.0\nCOPY --from=tools /bin/true /opt/t\nCOPY agent.py /opt/a.py\nCMD [\"python3\", \"/opt/a.py\"]\n";
    expect(checked(text)).toEqual([
      { image: "ssebench/debian-root:bookworm", where: `${F}:1` },
      { image: "base-generic-python:1.0.0", where: `${F}:3` },
    ]);
  });

  test("refused: a base in a variable, ssebench's labels, the pinned entrypoint and user, SSE_ variables, COPY --from another image", () => {
    const pinned = "the run pins ssebench-entrypoint's sidecar-agent and runs the agent as the run's own uid";
    expect(checked("ARG BASE=x\nFROM ${BASE}\n")).toBe(msg.agentRefused(`${F}:2`, "side", "FROM ${BASE}", "a sidecar's base is named literally, so that it is checked before the build"));
    expect(checked("FROM debian\nLABEL a=1 ssebench.task=htmlesc\n")).toBe(msg.agentRefused(`${F}:2`, "side", "LABEL ssebench.task", "ssebench's labels say which task, layer and agent an image is"));
    expect(checked("FROM debian\nUSER nobody\n")).toBe(msg.agentRefused(`${F}:2`, "side", "USER", pinned));
    expect(checked("FROM debian\nENTRYPOINT [\"/x\"]\n")).toBe(msg.agentRefused(`${F}:2`, "side", "ENTRYPOINT", pinned));
    expect(checked("FROM debian\nENV SSE_TOOL_API=http://x\n")).toContain("may not use ENV SSE_TOOL_API");
    expect(checked("FROM debian\nCOPY --from=ghcr.io/x/case /ssebench /a\n")).toContain("may not use COPY --from=ghcr.io/x/case");
  });

  test("a sandbox agent's Dockerfile still may not name a base", () => {
    expect(() => checkAgentDockerfile("FROM debian\n", F, "side")).toThrow("may not use FROM debian");
  });

  test("the shipped python-agent passes and names its base", async () => {
    const agent = await loadAgent(join(repoRoot, "agents"), "python-agent");
    expect(agent).toMatchObject({ name: "python-agent", mode: "sidecar", usesModel: true, wires: ["chat"] });
    expect(checkSidecarSource(agent).map((b) => b.image)).toEqual(["base-generic-python:1.0.0"]);
  });
});

describe("agent.yaml mode", () => {
  const parse = (text: string) => parseAgentYaml("agents/side/agent.yaml", "side", `name: side\n${text}`);
  test("sandbox by default; sidecar when it says so; anything else and npm with a sidecar are refused", async () => {
    expect((await parse("uses_model: false\n")).mode).toBe("sandbox");
    expect((await parse("uses_model: false\nmode: sidecar\n")).mode).toBe("sidecar");
    await expect(parse("uses_model: false\nmode: cloud\n")).rejects.toThrow("agents/side/agent.yaml: mode must be one of: sandbox, sidecar");
    const npm = "npm: {package: x, version: 1.0.0, integrity: {x: sha512-a}, files: {x: bin/x}}\n";
    await expect(parse(`uses_model: false\nmode: sidecar\n${npm}`)).rejects.toThrow(`agents/side/agent.yaml: ${msg.sidecarNpm()}`);
  });
});

/** The engine's answers to `image inspect` of a base: by reference, its ID and labels. */
function engine(images: Record<string, { id: string; labels?: Record<string, string> }>): Docker & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async call(args): Promise<DockerResult> {
      const ref = args.at(-1) as string;
      asked.push(ref);
      const image = images[ref];
      if (!image) return { code: 1, stdout: "", stderr: `Error: No such image: ${ref}` };
      return { code: 0, stdout: `${image.id}\t${JSON.stringify(image.labels ?? null)}\n`, stderr: "" };
    },
  };
}

describe("the sidecar image's build", () => {
  const folder = tempDir("ssebench-sidecar-agent-");
  const dir = join(folder.path, "side");
  mkdirSync(dir);
  writeFileSync(join(dir, "agent.yaml"), "name: side\nmode: sidecar\nuses_model: false\n");
  const agent: Agent = { name: "side", version: "1", usesModel: false, wires: [], dir, reference: false, npm: undefined, external: true, mode: "sidecar" };
  const dockerfile = (from: string) => writeFileSync(join(dir, "Dockerfile"), `FROM ${from}\nCMD ["true"]\n`);

  test("a base the engine does not have is named before any build", async () => {
    dockerfile("my/python:3");
    await expect(sidecarImageSpec(engine({}), agent, "t")).rejects.toThrow(msg.sidecarBaseMissing(`${join(dir, "Dockerfile")}:1`, "side", "my/python:3"));
  });

  test("a base that is one of a task's images (case image, tool or agent layer) is refused", async () => {
    dockerfile("case/demo/t");
    const images = { "case/demo/t:latest": { id: "sha256:c", labels: { "ssebench.task": "t", "ssebench.layer": "case image" } } };
    await expect(sidecarImageSpec(engine(images), agent, "t")).rejects.toThrow(
      msg.agentRefused(`${join(dir, "Dockerfile")}:1`, "side", "FROM case/demo/t", "it is a case image of task t: a sidecar runs beside the task, never with its files"),
    );
  });

  test("the inputs hash follows the base's ID (a rebuilt base rebuilds the image) and the agent's files", async () => {
    dockerfile("ssebench/debian-root:bookworm");
    const inputs = async (id: string) => (await sidecarImageSpec(engine({ "ssebench/debian-root:bookworm": { id } }), agent, "t")).inputs;
    const a = await inputs("sha256:a");
    expect(await inputs("sha256:a")).toBe(a);
    expect(await inputs("sha256:b")).not.toBe(a);
    writeFileSync(join(dir, "agent.py"), "print(1)\n");
    expect(await inputs("sha256:a")).not.toBe(a);
    const spec = await sidecarImageSpec(engine({ "ssebench/debian-root:bookworm": { id: "sha256:a" } }), agent, "t");
    expect(spec).toMatchObject({ layer: "sidecar image", tag: "t", context: dir, buildArgs: {} });
  });

  test("the built image must have a CMD: the agent's command", () => {
    expect(sidecarCommand(agent, ["python3", "a.py"])).toEqual(["python3", "a.py"]);
    expect(() => sidecarCommand(agent, null)).toThrow(msg.agentNoCmd(`${join(dir, "Dockerfile")} (image)`, "side"));
  });
});
