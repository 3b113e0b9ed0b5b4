/** Every text `ssebench images` prints; tests assert these exact strings. */
export const msg = {
  superseded: () => "superseded: a newer build has its name",
  otherVersion: (tagged: string, current: string) => `a tool layer of ssebench ${tagged} (this is ${current})`,
  agentGone: (agent: string) => `agent ${agent} is not among this ssebench's agents`,
  storeFilling: () => "a run is filling it (its lock container exists)",
  storeUnmarked: () => "no agent files image marks it: its agent's files changed, or the agent is gone",
  agentVersion: (agent: string, tagged: string, current: string) => `agent ${agent} ${tagged} (its agent.yaml is now ${current})`,
  badLabel: (value: string) => `ssebench images: --label must be KEY=VALUE, not '${value}'`,
  none: (label?: string) => (label ? `No images made by ssebench with the label ${label} on this engine` : "No images made by ssebench on this engine"),
  total: (n: number) => `${n} images; SIZE counts the layers an image shares with others, UNIQUE is what removing it alone frees`,
  nothingToPrune: (n: number) => `Nothing to prune: all ${n} of ssebench's images are needed`,
  wouldRemove: (n: number, unique: string) => `Would remove ${n} images (at least ${unique}; run without --dry-run to remove them):`,
  removed: (n: number, unique: string) => `Removed ${n} images (at least ${unique} freed)`,
  refused: (name: string, reason: string) => `Not removed: ${name}: ${reason}`,
} as const;
