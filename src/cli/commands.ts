/**
 * The command tree. Every entry is a lazy loader so that `ssebench --help` and light commands never
 * pay for heavy modules (arktype, Hono, the dataset tools); command files themselves import nothing
 * heavy at top level and load their capability inside run().
 */
import type { ArgsDef, CommandDef } from "citty";
import { loadCommand as load } from "./lazy-command.ts";

type Loader = () => Promise<CommandDef<ArgsDef>>;

export const rootCommands: Record<string, Loader> = {
  dataset: () => load(import("./dataset/index.ts")),
  run: () => load(import("./run.ts")),
  agents: () => load(import("./agents.ts")),
  models: () => load(import("./models.ts")),
  results: () => load(import("./results.ts")),
  report: () => load(import("./report.ts")),
  view: () => load(import("./view.ts")),
  tasks: () => load(import("./tasks/index.ts")),
  catalog: () => load(import("./catalog/index.ts")),
  gateway: () => load(import("./gateway/index.ts")),
  images: () => load(import("./images/index.ts")),
};
