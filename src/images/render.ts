/** The tables of `ssebench images` and `images prune`, and their JSON. */
import { renderTable } from "../output/terminal.ts";
import type { ImageEntry } from "./inventory.ts";
import type { Candidate, Removal } from "./prune.ts";

/** Bytes in the engine's decimal units, 3 significant digits ("1.27 GB", "38.2 kB", "0 B"). */
export function humanSize(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? String(value) : value.toPrecision(3)} ${units[unit]}`;
}

/** Its first name, else `<none> ` and the short ID. */
export function imageName(image: ImageEntry): string {
  return image.tags[0] ?? `<none> ${image.id.replace(/^sha256:/, "").slice(0, 12)}`;
}

const dash = (v: string | undefined) => v || "-";

export function renderImages(images: readonly ImageEntry[]): string {
  const rows = images.map((i) => [imageName(i), i.kind, dash(i.task), dash(i.agent), humanSize(i.size), humanSize(i.unique), String(i.containers)]);
  return renderTable(["IMAGE", "KIND", "TASK", "AGENT", "SIZE", "UNIQUE", "CONTAINERS"], rows);
}

export function renderCandidates(chosen: readonly Candidate[]): string {
  return renderTable(["IMAGE", "KIND", "UNIQUE", "WHY"], chosen.map((c) => [imageName(c.image), c.image.kind, humanSize(c.image.unique), c.reason]));
}

/** --json: snake_case keys, sizes in bytes. */
export function imageJson(i: ImageEntry) {
  return {
    id: i.id,
    tags: i.tags,
    kind: i.kind,
    task: i.task ?? null,
    dataset: i.dataset ?? null,
    agent: i.agent ?? null,
    built_by: i.builtBy ?? null,
    created: i.created,
    size: i.size,
    shared_size: i.shared,
    unique_size: i.unique,
    containers: i.containers,
  };
}

export function removalJson(r: Removal | Candidate) {
  const base = { ...imageJson(r.image), reason: r.reason };
  return "removed" in r ? { ...base, removed: r.removed, error: r.error ?? null } : base;
}

export const uniqueTotal = (images: readonly ImageEntry[]) => humanSize(images.reduce((n, i) => n + i.unique, 0));
