/**
 * `ssebench models`: the models a run (or `gateway serve`) can name with --model — the built-in
 * ones, then the user's folder (model-folders.ts) — with their provider, wires, upstream model
 * and where each comes from. Files are checked as a run checks them, but for the key, which a
 * listing does not need: a file that does not load is one line on stderr naming it and the problem,
 * and the command exits 1 after listing the others. A folder's model hidden by a built-in one of
 * the same name is said on stderr.
 */
import { UserError } from "../errors.ts";
import { err, out, renderJson, renderTable, write } from "../output/terminal.ts";
import { msg } from "./messages.ts";
import { listModels, modelFolders } from "./model-folders.ts";
import { readModelConfig } from "./models.ts";

export interface ModelListing {
  name: string;
  provider: string;
  wires: string[];
  upstream_model: string | null;
  /** "built-in", or the user's folder */
  source: string;
  file: string;
}

export async function modelsCommand(args: { json: boolean; models?: string; builtIn: string }, env: NodeJS.ProcessEnv): Promise<number> {
  const { models, hidden } = listModels(modelFolders(args.builtIn, env, args.models));
  const listed: ModelListing[] = [];
  let bad = 0;
  for (const m of models) {
    try {
      const c = await readModelConfig(m.file);
      const source = m.folder.origin === "built-in" ? "built-in" : m.folder.dir;
      listed.push({ name: m.name, provider: c.provider, wires: [...c.wires], upstream_model: c.upstream_model ?? null, source, file: m.file });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      err(e.message);
      bad++;
    }
  }
  for (const h of hidden) err(msg.modelHidden(h.file, h.name, models.find((m) => m.name === h.name)?.file ?? ""));
  if (args.json) write(renderJson(listed));
  else if (listed.length === 0) err(msg.noModelsListed(modelFolders(args.builtIn, env, args.models).map((f) => f.dir)));
  else out(renderTable(["NAME", "PROVIDER", "WIRES", "UPSTREAM MODEL", "FROM"], listed.map((m) => [m.name, m.provider, m.wires.join(","), m.upstream_model ?? "-", m.source])));
  return bad > 0 ? 1 : 0;
}
