/**
 * A sidecar agent's image (agent.yaml `mode: sidecar`; docs/agents.md "Sidecar agents"): the
 * agent's Dockerfile built whole, FROM any base the engine already has (the Debian root image,
 * a Python image…), once per agent version whatever the task, offline like every build. It runs
 * beside the task's container, never on top of it, so no task file is in it; a base that is one
 * of ssebench's task images (a case image, a tool or agent layer: they carry the `ssebench.task`
 * label) is refused before the build, as is a base the engine does not have (the build would try
 * to pull it). The inputs hash covers the agent's folder and the bases' IDs, so a rebuilt base
 * rebuilds the image.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import type { Docker } from "../backends/docker.ts";
import { msg } from "../messages.ts";
import { type BaseImage, checkAgentDockerfile } from "./agent-dockerfile.ts";
import type { Agent } from "./agents.ts";
import { InputHash } from "./content-hash.ts";
import { IMAGE_LABELS, type LayerSpec, withTag } from "./layers.ts";

/** Bumped when what a sidecar image is built from changes, so every one is rebuilt. */
const LAYOUT = "sidecar-1";
/** The layers ssebench builds per task (IMAGE_LABELS.layer): none may be a sidecar's base. */
const TASK_LAYERS = ["case image", "tool layer", "agent layer"];

/** Checks the Dockerfile (throws a one-line UserError); the bases its stages start FROM. */
export function checkSidecarSource(agent: Agent): BaseImage[] {
  const file = join(agent.dir, "Dockerfile");
  return checkAgentDockerfile(readFileSync(file, "utf8"), file, agent.name, true);
}

interface BaseFacts {
  id: string;
  labels: Record<string, string>;
}

async function inspectBase(docker: Docker, image: string): Promise<BaseFacts | undefined> {
  const r = await docker.call(["image", "inspect", "--format", "{{.Id}}\t{{json .Config.Labels}}", withTag(image)]);
  if (r.code !== 0) return undefined;
  const [id = "", labels = "null"] = r.stdout.trim().split("\t");
  return { id, labels: (JSON.parse(labels) as Record<string, string> | null) ?? {} };
}

/** The build of the sidecar image: every base on the engine and none a task's image. */
export async function sidecarImageSpec(docker: Docker, agent: Agent, tag: string): Promise<LayerSpec> {
  const bases = checkSidecarSource(agent);
  const hash = new InputHash().tree("agent", agent.dir).value("layout", LAYOUT);
  for (const base of bases) {
    const facts = await inspectBase(docker, base.image);
    if (!facts) throw new UserError(msg.sidecarBaseMissing(base.where, agent.name, base.image));
    const layer = facts.labels[IMAGE_LABELS.layer] ?? "";
    if (facts.labels[IMAGE_LABELS.task] || TASK_LAYERS.includes(layer)) {
      throw new UserError(msg.agentRefused(base.where, agent.name, `FROM ${base.image}`, `it is ${layer ? `a ${layer}` : "an image"} of task ${facts.labels[IMAGE_LABELS.task] ?? "?"}: a sidecar runs beside the task, never with its files`));
    }
    hash.value(`base ${base.image}`, facts.id);
  }
  return { layer: "sidecar image", tag, context: agent.dir, buildArgs: {}, inputs: hash.digest() };
}

/** The built image's command: a sidecar image must say what the agent runs. */
export function sidecarCommand(agent: Agent, cmd: string[] | null | undefined): string[] {
  if (!cmd?.length) throw new UserError(msg.agentNoCmd(`${join(agent.dir, "Dockerfile")} (image)`, agent.name));
  return cmd;
}
