/**
 * What the archive may hold when the run ends (`SSE_MAX_ARCHIVE_MB`, `SSE_MAX_ARCHIVE_FILES`): the
 * agent writes it without limit during its phase, and the host keeps it or (a Swarm trial)
 * receives it with the results in one upload that the receiver refuses whole past its limits
 * (contract/upload.ts). So the whole archive is measured at any depth (tree-walk.ts: no path
 * limit), `plugins/` and `artifact/` included, every entry counted and regular files by apparent
 * size, and cut to fit both its own bounds and what the upload leaves after the results folder:
 * the shallowest entries kept when there are too many, the largest files removed first when too
 * big; what the agent left gives way before the plugins' output (`plugins/`, `artifact/`) unless
 * only the latter holds enough (what the agent planted there).
 */
import { UPLOAD_LIMITS } from "../../contract/upload.ts";
import { log } from "../log.ts";
import { type TreeEntry, walkTree } from "../tree-walk.ts";

/** Plugin output, cut last. */
const PLUGIN_TOPS = new Set(["plugins", "artifact"]);
/** Room kept in the upload for what is written after the bound (log lines, the tarball's `archive/` entry). */
const UPLOAD_SLACK = { bytes: 4 * 2 ** 20, entries: 64 };

export interface ArchiveBounds {
  maxBytes: number;
  maxEntries: number;
}

type Tier = "agent" | "plugins";
const tierOf = (e: TreeEntry): Tier => (PLUGIN_TOPS.has(e.top) ? "plugins" : "agent");
const TIERS: Tier[] = ["agent", "plugins"];

interface Measure {
  bytes: number;
  entries: number;
  byTier: Record<Tier, { entries: number; perDepth: Map<number, number>; sizes: number[] }>;
}

function measure(dir: string): Measure {
  const m: Measure = { bytes: 0, entries: 0, byTier: { agent: { entries: 0, perDepth: new Map(), sizes: [] }, plugins: { entries: 0, perDepth: new Map(), sizes: [] } } };
  walkTree(dir, (e) => {
    const t = m.byTier[tierOf(e)];
    m.entries++;
    t.entries++;
    t.perDepth.set(e.depth, (t.perDepth.get(e.depth) ?? 0) + 1);
    if (e.st.isFile()) {
      m.bytes += e.st.size;
      t.sizes.push(e.st.size);
    }
    return "keep";
  });
  return m;
}

/** The results folder's share of the upload (the archive is sent beside it as `archive/`). */
export function resultsUse(results: string): { bytes: number; entries: number } {
  let bytes = 0;
  let entries = 0;
  walkTree(results, (e) => {
    if (e.top === "archive") return undefined;
    entries++;
    if (e.st.isFile()) bytes += e.st.size;
    return "keep";
  });
  return { bytes, entries };
}

/** How many of a tier's entries stay, the shallowest first: every entry down to `depth`, then the first `more` one level deeper. */
interface EntryCut {
  depth: number;
  more: number;
}

function entryCut(perDepth: Map<number, number>, keep: number): EntryCut {
  let kept = 0;
  for (const depth of [...perDepth.keys()].sort((a, b) => a - b)) {
    const n = perDepth.get(depth)!;
    if (kept + n > keep) return { depth: depth - 1, more: keep - kept };
    kept += n;
  }
  return { depth: Infinity, more: 0 };
}

/** Which of a tier's files go, the largest first: every one over `size`, and the first `more` of exactly `size`. */
interface ByteCut {
  size: number;
  more: number;
}

function byteCut(sizes: number[], excess: number): ByteCut | undefined {
  if (excess <= 0) return undefined;
  const sorted = sizes.filter((s) => s > 0).sort((a, b) => b - a); // an empty file frees nothing
  let freed = 0;
  let n = 0;
  while (n < sorted.length && freed < excess) freed += sorted[n++]!;
  if (n === 0) return undefined;
  const size = sorted[n - 1]!;
  return { size, more: n - sorted.slice(0, n).filter((s) => s > size).length };
}

/**
 * How much of an excess each tier gives up: the agent's alone when it holds enough, else the
 * plugins' alone when they do (what the agent planted in `plugins/`), else all of the agent's and
 * the rest from the plugins'.
 */
function share(excess: number, agent: number, plugins: number): Record<Tier, number> {
  if (excess <= 0) return { agent: 0, plugins: 0 };
  if (agent >= excess) return { agent: excess, plugins: 0 };
  if (plugins >= excess) return { agent: 0, plugins: excess };
  return { agent, plugins: excess - agent };
}

/** Cuts the archive to its bounds (and the upload's room after `results`); returns what went: entries and bytes. */
export function boundArchive(archive: string, bounds: ArchiveBounds, results?: string): { entries: number; bytes: number } {
  const used = results ? resultsUse(results) : { bytes: 0, entries: 0 };
  const maxBytes = Math.max(0, Math.min(bounds.maxBytes, UPLOAD_LIMITS.maxBytes - used.bytes - UPLOAD_SLACK.bytes));
  const maxEntries = Math.max(0, Math.min(bounds.maxEntries, UPLOAD_LIMITS.maxFiles - used.entries - UPLOAD_SLACK.entries));
  let m = measure(archive);
  const removed = { entries: 0, bytes: 0 };
  const named: string[] = [];
  const note = (e: TreeEntry) => {
    removed.entries++;
    if (e.st.isFile()) removed.bytes += e.st.size;
    if (named.length < 20) named.push(`${e.rel().slice(0, 200)} (${e.st.isDirectory() ? "folder" : `${e.st.size} bytes`})`);
  };
  if (m.entries > maxEntries) {
    const out = share(m.entries - maxEntries, m.byTier.agent.entries, m.byTier.plugins.entries);
    const cuts = Object.fromEntries(TIERS.map((t) => [t, out[t] > 0 ? entryCut(m.byTier[t].perDepth, m.byTier[t].entries - out[t]) : undefined])) as Record<Tier, EntryCut | undefined>;
    const seen: Record<Tier, number> = { agent: 0, plugins: 0 };
    walkTree(archive, (e) => {
      if (e.removing) return void note(e);
      const t = tierOf(e);
      const cut = cuts[t];
      if (!cut || e.depth <= cut.depth) return "keep";
      if (e.depth === cut.depth + 1 && seen[t]++ < cut.more) return "keep";
      note(e);
      return "remove";
    });
    m = measure(archive);
  }
  if (m.bytes > maxBytes) {
    const sum = (t: Tier) => m.byTier[t].sizes.reduce((a, b) => a + b, 0);
    const out = share(m.bytes - maxBytes, sum("agent"), sum("plugins"));
    const cuts: Record<Tier, ByteCut | undefined> = { agent: byteCut(m.byTier.agent.sizes, out.agent), plugins: byteCut(m.byTier.plugins.sizes, out.plugins) };
    const atSize: Record<Tier, number> = { agent: 0, plugins: 0 };
    walkTree(archive, (e) => {
      const cut = cuts[tierOf(e)];
      if (!cut || !e.st.isFile() || e.st.size < cut.size) return "keep";
      if (e.st.size === cut.size && atSize[tierOf(e)]++ >= cut.more) return "keep";
      note(e);
      return "remove";
    });
  }
  if (removed.entries > 0) log("WARN", "Archive over its bounds: entries removed", { max_bytes: maxBytes, max_entries: maxEntries, removed: removed.entries, removed_bytes: removed.bytes, first: named.join(",") });
  return removed;
}
