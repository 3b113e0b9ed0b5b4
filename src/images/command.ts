/** `ssebench images` and `ssebench images prune [--dry-run]` (docs/images.md). */
import { usageError } from "../errors.ts";
import { err, out, renderJson, write } from "../output/terminal.ts";
import { listAgents, loadAgent } from "../run/layers/agents.ts";
import { DockerCli } from "../run/backends/docker.ts";
import { findHome } from "../run/home.ts";
import { VERSION } from "../version.ts";
import { listImages } from "./inventory.ts";
import { msg } from "./messages.ts";
import { candidates, removeImages } from "./prune.ts";
import { imageJson, imageName, removalJson, renderCandidates, renderImages, uniqueTotal } from "./render.ts";

export interface ImagesArgs {
  json: boolean;
  /** KEY=VALUE: only images with this label (a test's or a CI run's own) */
  label?: string;
}

function parseLabel(value: string | undefined): { key: string; value: string } | undefined {
  // An empty value (an unset "$LABEL") is refused: `images prune --label ""` would otherwise prune every image.
  if (value === undefined) return undefined;
  const at = value.indexOf("=");
  if (at <= 0) throw usageError(msg.badLabel(value));
  return { key: value.slice(0, at), value: value.slice(at + 1) };
}

export async function imagesCommand(args: ImagesArgs): Promise<number> {
  const only = parseLabel(args.label);
  const images = await listImages(new DockerCli(), only);
  if (args.json) write(renderJson(images.map(imageJson)));
  else if (images.length === 0) err(msg.none(args.label || undefined));
  else out(`${renderImages(images)}${msg.total(images.length)}`);
  return 0;
}

/**
 * The version each agent's layers are named for; an agent whose agent.yaml does not load keeps
 * all of its images (undefined: any version is needed).
 */
async function agentVersions(): Promise<Map<string, string | undefined>> {
  const home = findHome();
  const versions = new Map<string, string | undefined>();
  for (const name of listAgents(home.agentsDir)) {
    const agent = await loadAgent(home.agentsDir, name).catch(() => undefined);
    versions.set(name, agent ? (agent.version ?? VERSION) : undefined);
  }
  return versions;
}

export async function pruneCommand(args: ImagesArgs & { dryRun: boolean }): Promise<number> {
  const only = parseLabel(args.label);
  const docker = new DockerCli();
  const images = await listImages(docker, only);
  const all = only ? await listImages(docker) : images;
  const chosen = candidates(images, { version: VERSION, agents: await agentVersions() }, all);
  const total = uniqueTotal(chosen.map((c) => c.image));
  if (args.dryRun || chosen.length === 0) {
    if (args.json) write(renderJson(chosen.map(removalJson)));
    else if (chosen.length === 0) out(msg.nothingToPrune(images.length));
    else out(`${msg.wouldRemove(chosen.length, total)}\n${renderCandidates(chosen)}`);
    return 0;
  }
  const removals = await removeImages(docker, chosen);
  const done = removals.filter((r) => r.removed);
  if (args.json) write(renderJson(removals.map(removalJson)));
  else {
    if (done.length > 0) out(`${renderCandidates(done)}${msg.removed(done.length, uniqueTotal(done.map((r) => r.image)))}`);
    for (const r of removals) if (!r.removed) err(msg.refused(imageName(r.image), r.error ?? ""));
  }
  return done.length === removals.length ? 0 : 1;
}
