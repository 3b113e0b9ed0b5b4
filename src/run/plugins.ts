/**
 * The CLI's side of plugins: validate <home>/runtime/plugins/plugins.yaml against its schema.json
 * before the tool layer is built (with the entrypoint's own loader, so both read the file the
 * same way), and choose which plugins the layer installs. `--plugin` selects exactly the named
 * plugins (SSE_PLUGINS is then set for the container); without it the layer carries the ones
 * `enabled` in plugins.yaml and the container reads `enabled` itself.
 */
import { existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { loadPlugins as loadEntrypointPlugins } from "../contract/plugins-file.ts";
import { UserError } from "../errors.ts";
import { type PluginEntry, selectPlugins as select } from "../formats/run/plugins.ts";
import { msg } from "./messages.ts";

export type { PluginEntry };

export interface PluginSelection {
  /** names installed into the tool layer, in plugins.yaml order */
  selected: string[];
  /** SSE_PLUGINS for the container: only when --plugin was given */
  env: string | undefined;
  /** the selected plugins that call the run's model (`llm: true`) */
  llm: string[];
}

const ENTRYPOINT_PREFIX = /^ssebench-entrypoint: invalid plugin configuration: /;

/** Reads and validates plugins.yaml (missing = no plugins); errors name the file and line. */
export async function loadPlugins(pluginsDir: string, cacheDir: string, cwd = process.cwd()): Promise<PluginEntry[]> {
  try {
    return await loadEntrypointPlugins(pluginsDir, cacheDir);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const shownDir = relative(cwd, pluginsDir) || pluginsDir;
    throw new UserError(`${shownDir}/${error.message.replace(ENTRYPOINT_PREFIX, "")}`);
  }
}

/** Applies --plugin (or the enabled flags) and checks each selected plugin has a run.sh. */
export function selectPlugins(pluginsDir: string, entries: PluginEntry[], requested: string[] | undefined): PluginSelection {
  const { selected, unknown } = select(entries, requested);
  if (unknown.length > 0) throw new UserError(msg.unknownPlugins(unknown));
  for (const { name } of selected) {
    const runSh = join(pluginsDir, name, "run.sh");
    if (!existsSync(runSh) || !statSync(runSh).isFile()) throw new UserError(msg.pluginNoRunSh(name, join(pluginsDir, name)));
  }
  const names = selected.map((p) => p.name);
  return { selected: names, env: requested === undefined ? undefined : names.join(","), llm: selected.filter((p) => p.llm).map((p) => p.name) };
}
