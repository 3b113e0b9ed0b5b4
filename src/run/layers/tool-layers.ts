/**
 * The two layers on top of the case image: the tool layer (images/sandbox/Dockerfile: entrypoint,
 * users, /plugins) and the agent layer (agent-layer.ts), and their tags. Each one's inputs hash
 * covers its files and the ID of the image below it, so a change anywhere below rebuilds what is above.
 */
import { chmodSync, copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../version.ts";
import type { Agent } from "./agents.ts";
import { InputHash } from "./content-hash.ts";
import type { Home } from "../home.ts";
import { type LayerSpec, refComponent, withTag } from "./layers.ts";
import { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";

const prefixed = (registry: string, name: string) => withTag(registry ? `${registry}/${name}` : name);

export function toolTag(registry: string, task: string): string {
  return prefixed(registry, `tool/${refComponent(task)}:${VERSION}`);
}

export function agentTag(registry: string, agent: Agent, task: string): string {
  return prefixed(registry, `agent-${refComponent(agent.name)}/${refComponent(task)}:${agent.version ?? VERSION}`.toLowerCase());
}

/** The agent's files image (agent-layer.ts): one per agent version, whatever the task. */
export function agentFilesTag(registry: string, agent: Agent): string {
  return prefixed(registry, `agent-files/${refComponent(agent.name)}:${agent.version ?? VERSION}`.toLowerCase());
}

/** A sidecar agent's whole image (sidecar-image.ts): one per agent version, whatever the task. */
export function agentSidecarTag(registry: string, agent: Agent): string {
  return prefixed(registry, `agent-sidecar/${refComponent(agent.name)}:${agent.version ?? VERSION}`.toLowerCase());
}

const PLUGIN_FILES = ["plugins.yaml", "schema.json"];

function pluginSources(home: Home, plugins: readonly string[]): { rel: string; path: string }[] {
  return [
    ...PLUGIN_FILES.map((f) => ({ rel: f, path: join(home.pluginsDir, f) })).filter((s) => existsSync(s.path)),
    ...plugins.map((name) => ({ rel: name, path: join(home.pluginsDir, name) })),
  ];
}

export function toolInputs(home: Home, caseId: string, plugins: readonly string[]): string {
  if (!existsSync(home.entrypointBinary)) throw new UserError(msg.entrypointMissing(home.entrypointBinary));
  const h = new InputHash()
    .file("Dockerfile", home.sandboxDockerfile)
    .file("ssebench-entrypoint", home.entrypointBinary)
    .value("case-image", caseId);
  for (const s of pluginSources(home, plugins)) {
    if (PLUGIN_FILES.includes(s.rel)) h.file(`plugins/${s.rel}`, s.path);
    else h.tree(`plugins/${s.rel}`, s.path);
  }
  return h.digest();
}

/**
 * The tool layer's build context: only the entrypoint (hard-linked: it is 100 MB) and plugins/.
 * Returns the spec and a cleanup for the temp folder.
 */
export function toolLayerSpec(
  home: Home,
  tag: string,
  caseId: string,
  plugins: readonly string[],
  inputs: string,
): { spec: LayerSpec; cleanup: () => void } {
  const context = mkdtempSync(join(tmpdir(), "ssebench-tool-"));
  const cleanup = () => rmSync(context, { recursive: true, force: true });
  try {
    const binary = join(context, "ssebench-entrypoint");
    // The image's mode comes from here (the Dockerfile must not chmod it: that stores it twice);
    // a binary of another mode is copied, so its own mode is left as it is.
    try {
      if ((statSync(home.entrypointBinary).mode & 0o7777) !== 0o755) throw new Error("copy it");
      linkSync(home.entrypointBinary, binary);
    } catch {
      copyFileSync(home.entrypointBinary, binary);
      chmodSync(binary, 0o755);
    }
    mkdirSync(join(context, "plugins"));
    for (const s of pluginSources(home, plugins)) cpSync(s.path, join(context, "plugins", s.rel), { recursive: true });
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    spec: {
      layer: "tool layer",
      tag,
      context,
      dockerfile: home.sandboxDockerfile,
      buildArgs: { CASE_IMAGE: caseId },
      inputs,
    },
    cleanup,
  };
}

