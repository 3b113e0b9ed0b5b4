/**
 * `--agent PATH`: an agent folder outside the home (a value with a '/'), for `run` and jobs; bare
 * names still come from the home's agents/ with the clear message for an unknown one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg as jobMsg } from "../../src/jobs/messages.ts";
import { agentUsesModel, isAgentPath, listAgents, loadAgent } from "../../src/run/layers/agents.ts";
import { msg } from "../../src/run/messages.ts";
import { parseRunOptions } from "../../src/run/options.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { Argv } from "../../src/argv.ts";

const noFlags = Argv.read([], new Set());

const scratch = tempDir("ssebench-agent-path-");
afterAll(() => scratch.cleanup());
const agentsDir = join(repoRoot, "agents");
const example = join(repoRoot, "docs", "examples", "shell-agent");

function agentFolder(name: string, yaml: string, dockerfile = true): string {
  const dir = join(scratch.path, `${Math.random().toString(36).slice(2)}`, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "agent.yaml"), yaml);
  if (dockerfile) writeFileSync(join(dir, "Dockerfile"), "FROM scratch\nCOPY agent.yaml /opt/agent/\nCMD [\"true\"]\n");
  return dir;
}

describe("loadAgent with a folder", () => {
  test("a value with a '/' is a folder; a bare word is a name", () => {
    expect(["./mine", "docs/examples/shell-agent", "/opt/agents/x", "mine/"].every(isAgentPath)).toBe(true);
    expect(isAgentPath("reference")).toBe(false);
  });

  test("the shell-agent example loads from its folder, marked external", async () => {
    const agent = await loadAgent(agentsDir, example);
    expect(agent).toMatchObject({ name: "shell-agent", version: "0.1.0", usesModel: true, wires: ["chat"], dir: example, reference: false, external: true });
    expect(await agentUsesModel(agentsDir, example)).toBe(true);
    expect((await loadAgent(agentsDir, "dummy")).external).toBe(false);
  });

  test("a folder without agent.yaml is named, as is one without a Dockerfile", async () => {
    const missing = join(scratch.path, "nowhere", "mine");
    await expect(loadAgent(agentsDir, missing)).rejects.toThrow(msg.agentFolderMissing(missing, missing));
    await expect(agentUsesModel(agentsDir, missing)).rejects.toThrow(msg.agentFolderMissing(missing, missing));
    const bare = agentFolder("bare", "name: bare\nuses_model: false\n", false);
    await expect(loadAgent(agentsDir, bare)).rejects.toThrow(msg.agentInvalid(bare, "has no Dockerfile"));
  });

  test("a folder may not take a built-in's name that gets a patch mounted, and its name is its folder's", async () => {
    for (const name of ["reference", "patch"]) {
      const dir = agentFolder(name, `name: ${name}\nuses_model: false\n`);
      await expect(loadAgent(agentsDir, dir)).rejects.toThrow(msg.agentInvalid(join(dir, "agent.yaml"), msg.agentNameReserved(name)));
    }
    const other = agentFolder("mine", "name: yours\nuses_model: false\n");
    await expect(loadAgent(agentsDir, other)).rejects.toThrow(msg.agentInvalid(join(other, "agent.yaml"), "name 'yours' differs from its folder 'mine'"));
  });

  test("an unknown bare name still gets the list of known agents", async () => {
    await expect(agentUsesModel(agentsDir, "refrence")).rejects.toThrow(msg.unknownAgent("refrence", listAgents(agentsDir)));
  });

  test("run options take a folder for --agent; a bare name must still be one path segment", () => {
    expect(parseRunOptions({ task: "t", agent: "../agents/mine" }, noFlags, {}).agent).toBe("../agents/mine");
    expect(() => parseRunOptions({ task: "t", agent: "bad name" }, noFlags, {})).toThrow(msg.pathSegment("--agent", "bad name"));
  });
});

describe("ssebench with --agent PATH (the compiled binary)", () => {
  test("a folder that is not an agent: one line, exit 1", async () => {
    const r = await ssebench(["run", "--task", "htmlesc-quote-overflow", "--agent", "./no/such/agent", "--results", scratch.path]);
    expect(r.stderr.trim()).toBe(msg.agentFolderMissing("./no/such/agent", join(repoRoot, "no/such/agent")));
    expect(r.exitCode).toBe(1);
  });

  test("a job with two agents of one name is refused before anything runs", async () => {
    const dir = agentFolder("dummy", "name: dummy\nuses_model: false\n");
    const r = await ssebench(["run", "--task", "htmlesc-quote-overflow", "--agent", "dummy", "--agent", dir, "--job", "clash", "--results", scratch.path]);
    expect(r.stderr.trim()).toBe(jobMsg.agentNameClash("dummy", [join(agentsDir, "dummy"), dir]));
    expect(r.exitCode).toBe(1);
  });

});
