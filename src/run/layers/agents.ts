/**
 * Agents: one folder per agent under <home>/agents with `agent.yaml` and a Dockerfile that starts
 * `FROM ${TOOL_IMAGE}` (the tool layer of the task being run), or `FROM scratch` with the agent's
 * files only. `--agent PATH` (a value with a '/') runs such a folder from anywhere.
 *
 * agent.yaml keys: `name` (required, equals the folder name), `version` (optional, the agent
 * layer's tag; default the ssebench version), `uses_model` (optional bool, default true: false
 * for agents that make no model calls, which then run without --model), `wires` (the wire formats
 * the agent speaks: anthropic, chat, responses, gemini; required when it makes model calls, so that `run`
 * refuses a model it cannot talk to), `npm` (optional: a CLI installed from npm on the host and
 * copied into the agent's build context, agent-npm.ts), `mode` (optional: `sandbox`, the default,
 * or `sidecar`: the Dockerfile builds a whole image FROM any base on the engine, which runs beside
 * the task's container: sidecar-image.ts). No other keys.
 */
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { UserError } from "../../errors.ts";
import { cacheDir } from "../home.ts";
import { msg } from "../messages.ts";
import { loadNpmLock, type NpmCli, parseNpmCli } from "./agent-npm-config.ts";
import { cachedValidation } from "./validation-cache.ts";

export interface Agent {
  name: string;
  version: string | undefined;
  usesModel: boolean;
  /** the wire formats the agent speaks (empty for an agent that makes no model calls) */
  wires: string[];
  dir: string;
  /** the reference agent gets the task's reference patch mounted read-only */
  reference: boolean;
  /** a CLI installed from npm on the host whose binary goes into the build context */
  npm: NpmCli | undefined;
  /** given as a folder (`--agent PATH`), not one of the home's agents/ */
  external: boolean;
  /** where the agent runs: in the task's container (sandbox) or in its own image beside it (sidecar) */
  mode: AgentMode;
}

export const AGENT_MODES = ["sandbox", "sidecar"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const VERSION = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** The built-in agent that applies a patch made elsewhere (`run --predictions`), mounted like the reference patch. */
export const PATCH_AGENT = "patch";

export const AGENT_WIRES = ["anthropic", "chat", "responses", "gemini"] as const;
/** Built-in agents that get a patch mounted: an agent folder from elsewhere may not take their names. */
const RESERVED = ["reference", PATCH_AGENT];

/** An --agent value with a '/' is an agent folder anywhere (`--agent ./mine`); else a name in the home. */
export function isAgentPath(value: string): boolean {
  return value.includes("/");
}

/** Where an --agent value's files are: `<agentsDir>/<name>`, or the folder it names. */
function agentFolder(agentsDir: string, spec: string): { dir: string; name: string; external: boolean } {
  if (!isAgentPath(spec)) return { dir: join(agentsDir, spec), name: spec, external: false };
  const dir = resolve(spec);
  return { dir, name: basename(dir), external: true };
}

/** agent.yaml of an --agent value, or the clear refusal: an unknown name lists the known ones. */
function agentFile(agentsDir: string, spec: string): { file: string; name: string; external: boolean } {
  const { dir, name, external } = agentFolder(agentsDir, spec);
  const file = join(dir, "agent.yaml");
  if (!existsSync(file)) throw new UserError(external ? msg.agentFolderMissing(spec, dir) : msg.unknownAgent(spec, listAgents(agentsDir)));
  if (external && RESERVED.includes(name)) throw new UserError(msg.agentInvalid(file, msg.agentNameReserved(name)));
  return { file, name, external };
}

export function listAgents(agentsDir: string): string[] {
  if (!existsSync(agentsDir)) return [];
  return readdirSync(agentsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(agentsDir, e.name, "agent.yaml")))
    .map((e) => e.name)
    .sort();
}

/** Parses and checks one agent.yaml; problems name the file. */
export async function parseAgentYaml(file: string, folder: string, text: string): Promise<Agent> {
  const { parse } = await import("yaml");
  let data: unknown;
  try {
    data = parse(text);
  } catch (cause) {
    throw new UserError(msg.agentInvalid(file, (cause as Error).message.split("\n")[0] ?? "invalid YAML"));
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new UserError(msg.agentInvalid(file, "must be a mapping with at least the key 'name'"));
  }
  const record = data as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => !["name", "version", "uses_model", "wires", "npm", "mode"].includes(k));
  if (extra.length > 0) throw new UserError(msg.agentInvalid(file, `unknown key(s): ${extra.join(", ")}`));
  const { name, version, uses_model: usesModel, wires, npm, mode = "sandbox" } = record;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new UserError(msg.agentInvalid(file, "name must be lowercase letters, digits, '_' or '-'"));
  }
  if (name !== folder) throw new UserError(msg.agentInvalid(file, `name '${name}' differs from its folder '${folder}'`));
  if (version !== undefined && (typeof version !== "string" || !VERSION.test(version))) {
    throw new UserError(msg.agentInvalid(file, "version must be a string usable as an image tag"));
  }
  if (usesModel !== undefined && typeof usesModel !== "boolean") {
    throw new UserError(msg.agentInvalid(file, "uses_model must be true or false"));
  }
  const wireList = wires === undefined ? [] : wires;
  if (!Array.isArray(wireList) || wireList.some((w) => !(AGENT_WIRES as readonly unknown[]).includes(w))) {
    throw new UserError(msg.agentInvalid(file, `wires must be a list of: ${AGENT_WIRES.join(", ")}`));
  }
  if (usesModel !== false && wireList.length === 0) throw new UserError(msg.agentInvalid(file, msg.agentWiresMissing()));
  if (!(AGENT_MODES as readonly unknown[]).includes(mode)) throw new UserError(msg.agentInvalid(file, `mode must be one of: ${AGENT_MODES.join(", ")}`));
  if (mode === "sidecar" && npm !== undefined) throw new UserError(msg.agentInvalid(file, msg.sidecarNpm()));
  const invalid = (detail: string) => new UserError(msg.agentInvalid(file, detail));
  return {
    name,
    version: version as string | undefined,
    usesModel: usesModel !== false,
    wires: wireList as string[],
    dir: join(file, ".."),
    reference: name === "reference",
    npm: npm === undefined ? undefined : loadNpmLock(parseNpmCli(npm, invalid), join(file, ".."), invalid),
    external: false,
    mode: mode as AgentMode,
  };
}

/**
 * Reads agents/<name>/agent.yaml, or <PATH>/agent.yaml for `--agent PATH`; unknown →
 * `Unknown agent 'x'. Available agents: …`.
 */
export async function loadAgent(agentsDir: string, spec: string): Promise<Agent> {
  const { file, name, external } = agentFile(agentsDir, spec);
  regularFile(file);
  const text = readFileSync(file, "utf8");
  const agent = await cachedValidation(cacheDir(process.env, "agents"), name, `${file}\0${text}`, () => parseAgentYaml(file, name, text));
  const dockerfile = join(file, "..", "Dockerfile");
  if (!existsSync(dockerfile) && !isSymlink(dockerfile)) {
    throw new UserError(msg.agentInvalid(join(file, ".."), "has no Dockerfile"));
  }
  regularFile(dockerfile);
  return { ...agent, external };
}

const isSymlink = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;

/** agent.yaml and the Dockerfile are read as files of the agent's folder: not a folder, not a link out of it. */
function regularFile(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) throw new UserError(msg.agentInvalid(path, msg.agentFileSymlink(readlinkSync(path))));
  if (!stat.isFile()) throw new UserError(msg.agentInvalid(path, msg.agentFileNotFile()));
}

/**
 * Whether an agent makes model calls. An unknown agent is refused here, first, so a misspelt name
 * is named as such instead of asking for --model; a broken agent.yaml is reported by loadAgent.
 */
export async function agentUsesModel(agentsDir: string, spec: string): Promise<boolean> {
  const { file, name } = agentFile(agentsDir, spec);
  // An agent.yaml that does not load is named first, like an unknown agent: asking for --model would send the user the wrong way.
  regularFile(file);
  const text = readFileSync(file, "utf8");
  return (await cachedValidation(cacheDir(process.env, "agents"), name, `${file}\0${text}`, () => parseAgentYaml(file, name, text))).usesModel;
}
