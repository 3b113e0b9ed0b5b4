/**
 * The agent layer, without the agent's files (docs/images.md "Agent stores"):
 * - the agent's files image: `agents/<name>/Dockerfile` built on its own (every stage FROM scratch
 *   or an earlier stage, agent-dockerfile.ts), so the agent's own build steps never see a task
 *   file. Its /opt/agent is copied once into the engine's agent store, a volume every trial of the
 *   agent mounts read-only at /opt/agent (agent-store-fill.ts); the files image is then removed
 *   and its config kept in the store's marker, a files image without files;
 * - the agent layer: a Dockerfile ssebench writes, `FROM` the task's tool layer, that sets the
 *   agent's own variables and its CMD, and names its store in a label: no layer of its own. No
 *   agent instruction runs where /ssebench exists.
 * The files image's config is checked against the tool layer's before anything is copied.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { checkAgentDockerfile } from "./agent-dockerfile.ts";
import type { Agent } from "./agents.ts";
import { InputHash } from "./content-hash.ts";
import { type Docker, dockerOk } from "../backends/docker.ts";
import type { LayerSpec } from "./layers.ts";
import { msg } from "../messages.ts";

/** Bumped when the generated agent layer changes, so every agent layer is rebuilt. */
const LAYOUT = "3";
/** Bumped when what an agent store holds changes, so every store is made again. */
const STORE_LAYOUT = "2";
/** The classic builder gives every image FROM scratch this PATH: it is not the agent's. */
const SCRATCH_PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
/**
 * Variables an agent layer may not set besides SSE_* and the tool layer's own: they steer the
 * dynamic loader, libc or Bun of the root entrypoint, the init (tini), git, a shell's start-up, or
 * what every child inherits.
 */
const RESERVED =
  /^(LD_|BUN_|NODE_|GLIBC_|MALLOC_|GIT_|LC_|TINI_)|^(GCONV_PATH|LOCPATH|NLSPATH|HOSTALIASES|RES_OPTIONS|LOCALDOMAIN|TZDIR|TMPDIR|PATH|LANG|LANGUAGE|TZ|TERM|TIMEOUT|HOME|USER|LOGNAME|SHELL|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|IFS|PS4)$/;

export interface ImageConfig {
  Entrypoint?: string[] | null;
  User?: string;
  Env?: string[] | null;
  Cmd?: string[] | null;
  OnBuild?: string[] | null;
}

/** What the agent layer takes from the files image. */
export interface AgentFiles {
  cmd: string[];
  env: string[];
}

const dockerfileOf = (agent: Agent) => join(agent.dir, "Dockerfile");

/** Reads and checks agents/<name>/Dockerfile (throws a one-line UserError). */
export function checkAgentSource(agent: Agent): void {
  checkAgentDockerfile(readFileSync(dockerfileOf(agent), "utf8"), dockerfileOf(agent), agent.name);
}

export function agentFilesSpec(agent: Agent, tag: string): LayerSpec {
  const hash = new InputHash().tree("agent", agent.dir);
  // The pinned integrity stands for the npm files: a re-run hashes no binary and installs nothing.
  if (agent.npm) hash.value("npm", JSON.stringify(agent.npm));
  const inputs = hash.digest();
  return { layer: "agent files", tag, context: agent.dir, buildArgs: {}, inputs };
}

/** The store's inputs: its files image's, and how a store is made (a files image of before stores never matches). */
export function agentStoreInputs(filesInputs: string): string {
  return new InputHash().value("agent-files", filesInputs).value("store-layout", STORE_LAYOUT).digest();
}

export function agentLayerInputs(filesId: string, toolId: string): string {
  return new InputHash().value("agent-files", filesId).value("tool-layer", toolId).value("layout", LAYOUT).digest();
}

/** `docker image inspect` of both configs in one call. */
export async function imageConfigs(docker: Docker, ids: string[]): Promise<ImageConfig[]> {
  const r = await dockerOk(docker, "Reading the agent's image", ["image", "inspect", "--format", "{{json .Config}}", ...ids]);
  return r.stdout.trim().split("\n").map((line) => (JSON.parse(line) ?? {}) as ImageConfig);
}

/** The files image's config may add variables and a CMD, nothing else (checked against the tool layer's). */
export function checkAgentImage(agent: Agent, files: ImageConfig, tool: ImageConfig): AgentFiles {
  const where = `${dockerfileOf(agent)} (image)`;
  const refuse = (what: string, why: string) => {
    throw new UserError(msg.agentRefused(where, agent.name, what, why));
  };
  if (files.Entrypoint?.length) refuse(`ENTRYPOINT ${JSON.stringify(files.Entrypoint)}`, "the run pins ssebench-entrypoint and runs it as root");
  if (files.User) refuse(`USER ${files.User}`, "the run pins ssebench-entrypoint and runs it as root");
  if (files.OnBuild?.length) refuse("ONBUILD", "an agent layer adds no build steps to later images");
  const toolNames = new Set((tool.Env ?? []).map((e) => e.split("=")[0]));
  const env = (files.Env ?? []).filter((e) => e !== SCRATCH_PATH);
  for (const entry of env) {
    const name = entry.split("=")[0] as string;
    if (name.startsWith("SSE_")) refuse(`ENV ${name}`, "SSE_* variables steer the entrypoint and the grader");
    if (toolNames.has(name) || RESERVED.test(name)) {
      refuse(`ENV ${name}`, "it would change the environment of the entrypoint or of the grading scripts");
    }
    if (/[\r\n]/.test(entry)) refuse(`ENV ${name}`, "a value with a line break");
  }
  if (!files.Cmd?.length) throw new UserError(msg.agentNoCmd(dockerfileOf(agent), agent.name));
  return { cmd: files.Cmd, env };
}

const quoted = (value: string) => `"${value.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;

const envLines = (env: string[]) =>
  env.map((e) => {
    const at = e.indexOf("=");
    return `ENV ${e.slice(0, at)}=${quoted(e.slice(at + 1))}`;
  });

/** A build context holding a Dockerfile of these lines (and these small files). */
function generated(lines: string[], files: Record<string, string> = {}): { context: string; cleanup: () => void } {
  const context = mkdtempSync(join(tmpdir(), "ssebench-agent-"));
  writeFileSync(join(context, "Dockerfile"), `${lines.join("\n")}\n`);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(context, name), text);
  return { context, cleanup: () => rmSync(context, { recursive: true, force: true }) };
}

/**
 * The store's marker: the files image's config (variables, CMD) without its files, tagged as the
 * files image once the store is filled; its labels name the store, and so does its one small file
 * (an image without a layer cannot be saved, and swarm nodes get the marker by save | load).
 */
export function storeMarkerSpec(tag: string, files: AgentFiles, inputs: string, volume: string): { spec: LayerSpec; cleanup: () => void } {
  const { context, cleanup } = generated(
    [
      "# Written by ssebench run: the agent's files image without its files, which are in the agent store its label names.",
      "FROM scratch",
      "COPY agent-store /.ssebench-agent-store",
      ...envLines(files.env),
      `CMD ${JSON.stringify(files.cmd)}`,
    ],
    { "agent-store": `${volume}\n` },
  );
  return { spec: { layer: "agent files", tag, context, buildArgs: {}, inputs }, cleanup };
}

/** The generated agent layer: the tool layer with the agent's variables and CMD; its files are mounted from the store. */
export function agentLayerSpec(tag: string, toolId: string, files: AgentFiles, inputs: string): { spec: LayerSpec; cleanup: () => void } {
  const { context, cleanup } = generated([
    "# Written by ssebench run: the task's tool layer plus the agent's settings; its files are in the agent store.",
    "ARG TOOL_IMAGE",
    "FROM ${TOOL_IMAGE}",
    ...envLines(files.env),
    `CMD ${JSON.stringify(files.cmd)}`,
  ]);
  return { spec: { layer: "agent layer", tag, context, buildArgs: { TOOL_IMAGE: toolId }, inputs }, cleanup };
}
