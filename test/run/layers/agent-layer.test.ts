/** The agent layer's checks: the agent's Dockerfile (static) and its files image's config. Real builds: test/e2e/hostile-agents.test.ts. */
import { describe, expect, test } from "bun:test";
import { checkAgentDockerfile } from "../../../src/run/layers/agent-dockerfile.ts";
import { agentLayerSpec, checkAgentImage, storeMarkerSpec } from "../../../src/run/layers/agent-layer.ts";
import type { Agent } from "../../../src/run/layers/agents.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const F = "agents/evil/Dockerfile";
const refused = (text: string) => {
  try {
    checkAgentDockerfile(text, F, "evil");
  } catch (e) {
    return (e as Error).message;
  }
  return "accepted";
};

describe("agent Dockerfile", () => {
  test("FROM scratch, multi-stage, COPY from an earlier stage, ENV, CMD: accepted", () => {
    expect(refused("FROM scratch AS build\nCOPY bin /opt/agent/bin\nFROM scratch\nCOPY --from=build /opt/agent /opt/agent\nCOPY --from=0 /x /opt/agent/x\nENV MY_AGENT=1\nCMD [\"x\"]\n")).toBe("accepted");
  });

  test("each refused instruction: one line naming the file, line, agent and instruction", () => {
    const why = {
      from: "an agent's stages start FROM scratch or an earlier stage, so no task file is readable where agent files are built",
      pinned: "the run pins ssebench-entrypoint and runs it as root",
      sse: "SSE_* variables steer the entrypoint and the grader",
    };
    expect(refused("ARG TOOL_IMAGE\nFROM ${TOOL_IMAGE}\nRUN cp -r /ssebench /opt/agent/answers\n")).toBe(
      `${F}:2: agent 'evil' may not use FROM \${TOOL_IMAGE} (${why.from})`,
    );
    expect(refused("FROM ghcr.io/42-b3yond-6ug/ssebench/case/demo/t:latest\n")).toBe(`${F}:1: agent 'evil' may not use FROM ghcr.io/42-b3yond-6ug/ssebench/case/demo/t:latest (${why.from})`);
    expect(refused("FROM scratch\nCOPY --from=ghcr.io/x/case /ssebench /opt/agent/a\n")).toBe(
      `${F}:2: agent 'evil' may not use COPY --from=ghcr.io/x/case (agent files come only from the agent's folder and its earlier stages)`,
    );
    expect(refused("FROM scratch AS a\nCOPY --from=a /x /y\n")).toContain("may not use COPY --from=a");
    expect(refused("FROM scratch\nENTRYPOINT [\"/bin/sh\"]\n")).toBe(`${F}:2: agent 'evil' may not use ENTRYPOINT (${why.pinned})`);
    expect(refused("FROM scratch\nCMD [\"x\"]\nUSER root\n")).toBe(`${F}:3: agent 'evil' may not use USER (${why.pinned})`);
    expect(refused("FROM scratch\nENV A=1 \\\n  SSE_TASK_ROOT=/fake\n")).toBe(`${F}:2: agent 'evil' may not use ENV SSE_TASK_ROOT (${why.sse})`);
    expect(refused("FROM scratch\nENV SSE_WORK /x\n")).toBe(`${F}:2: agent 'evil' may not use ENV SSE_WORK (${why.sse})`);
    expect(refused("FROM scratch\nARG SSE_X=1\n")).toBe(`${F}:2: agent 'evil' may not use ARG SSE_X (${why.sse})`);
    expect(refused("FROM scratch\nONBUILD RUN x\n")).toContain("may not use ONBUILD");
    expect(refused("FROM scratch\nADD https://example.invalid/x /opt/agent/x\n")).toContain("may not use ADD https://example.invalid/x");
    expect(refused("# escape=`\nFROM scratch\n")).toBe(`${F}:1: agent 'evil' may not use the parser directive '# escape=\`' (parser directives change how this check reads the file)`);
  });

  test("an empty Dockerfile, one with no FROM and one that starts with something else are refused before any build", () => {
    expect(refused("")).toBe(`${F}: agent 'evil' has no FROM instruction (an agent's files are built FROM scratch)`);
    expect(refused("# only a comment\nARG X=1\n")).toBe(`${F}: agent 'evil' has no FROM instruction (an agent's files are built FROM scratch)`);
    expect(refused("ARG X=1\ngarbage here\nFROM scratch\n")).toBe(`${F}:2: agent 'evil' starts with 'GARBAGE' (only ARG may come before the first FROM)`);
    expect(refused("RUN true\nFROM scratch\n")).toBe(`${F}:1: agent 'evil' starts with 'RUN' (only ARG may come before the first FROM)`);
  });

  test("the shipped agents pass", () => {
    for (const name of ["dummy", "reference"]) {
      const file = join(import.meta.dir, "..", "..", "..", "agents", name, "Dockerfile");
      expect(() => checkAgentDockerfile(readFileSync(file, "utf8"), file, name)).not.toThrow();
    }
  });
});

describe("agent files image config", () => {
  const agent = { name: "evil", dir: "agents/evil" } as Agent;
  const where = "agents/evil/Dockerfile (image)";
  const tool = { Env: ["PATH=/usr/bin:/bin", "CC=gcc"], Cmd: [] };
  const scratchPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  const check = (files: object) => {
    try {
      return checkAgentImage(agent, files, tool);
    } catch (e) {
      return (e as Error).message;
    }
  };

  test("a CMD and new variables are taken; the builder's own PATH is not the agent's", () => {
    expect(check({ Cmd: ["run-agent"], Env: [scratchPath, "MY_AGENT_HOME=/opt/agent"] })).toEqual({ cmd: ["run-agent"], env: ["MY_AGENT_HOME=/opt/agent"] });
  });

  test("ENTRYPOINT, USER, ONBUILD, SSE_*, a tool layer variable, loader variables, no CMD: refused", () => {
    expect(check({ Cmd: ["x"], Entrypoint: ["/fake"] })).toBe(`${where}: agent 'evil' may not use ENTRYPOINT ["/fake"] (the run pins ssebench-entrypoint and runs it as root)`);
    expect(check({ Cmd: ["x"], User: "0" })).toBe(`${where}: agent 'evil' may not use USER 0 (the run pins ssebench-entrypoint and runs it as root)`);
    expect(check({ Cmd: ["x"], OnBuild: ["RUN x"] })).toContain("may not use ONBUILD");
    expect(check({ Cmd: ["x"], Env: ["SSE_TASK_ROOT=/fake"] })).toBe(`${where}: agent 'evil' may not use ENV SSE_TASK_ROOT (SSE_* variables steer the entrypoint and the grader)`);
    const env = "it would change the environment of the entrypoint or of the grading scripts";
    expect(check({ Cmd: ["x"], Env: ["CC=/opt/agent/cc"] })).toBe(`${where}: agent 'evil' may not use ENV CC (${env})`);
    expect(check({ Cmd: ["x"], Env: ["PATH=/opt/agent/bin:/usr/bin"] })).toBe(`${where}: agent 'evil' may not use ENV PATH (${env})`);
    expect(check({ Cmd: ["x"], Env: ["LD_PRELOAD=/opt/agent/x.so"] })).toBe(`${where}: agent 'evil' may not use ENV LD_PRELOAD (${env})`);
    expect(check({ Cmd: ["x"], Env: ["BUN_OPTIONS=--preload x"] })).toContain("may not use ENV BUN_OPTIONS");
    for (const name of ["BASH_ENV", "TINI_SUBREAPER", "GIT_EXEC_PATH", "LC_ALL", "GLIBC_TUNABLES"]) {
      expect(check({ Cmd: ["x"], Env: [`${name}=x`] })).toBe(`${where}: agent 'evil' may not use ENV ${name} (${env})`);
    }
    expect(check({ Env: [] })).toBe("agents/evil/Dockerfile: agent 'evil' sets no CMD (the agent's command)");
  });

  test("the generated agent layer adds no files (they are in the agent store) and quotes values", () => {
    const { spec, cleanup } = agentLayerSpec("t", "sha256:tool", { cmd: ["a b", "c"], env: ['V=x "y" $HOME \\'] }, "in");
    try {
      expect(readFileSync(join(spec.context, "Dockerfile"), "utf8")).toBe(
        [
          "# Written by ssebench run: the task's tool layer plus the agent's settings; its files are in the agent store.",
          "ARG TOOL_IMAGE",
          "FROM ${TOOL_IMAGE}",
          'ENV V="x \\"y\\" \\$HOME \\\\"',
          'CMD ["a b","c"]',
          "",
        ].join("\n"),
      );
      expect(spec.buildArgs).toEqual({ TOOL_IMAGE: "sha256:tool" });
    } finally {
      cleanup();
    }
  });

  test("the store's marker is the files image's config without files", () => {
    const { spec, cleanup } = storeMarkerSpec("agent-files/x:1", { cmd: ["ssebench:agent", "x"], env: ["A=1"] }, "in", "ssebench-agent-x-0123456789abcdef");
    try {
      expect(readFileSync(join(spec.context, "Dockerfile"), "utf8")).toBe(
        [
          "# Written by ssebench run: the agent's files image without its files, which are in the agent store its label names.",
          "FROM scratch",
          "COPY agent-store /.ssebench-agent-store",
          'ENV A="1"',
          'CMD ["ssebench:agent","x"]',
          "",
        ].join("\n"),
      );
      expect(readFileSync(join(spec.context, "agent-store"), "utf8")).toBe("ssebench-agent-x-0123456789abcdef\n");
      expect(spec).toMatchObject({ layer: "agent files", tag: "agent-files/x:1", inputs: "in", buildArgs: {} });
    } finally {
      cleanup();
    }
  });
});
