/**
 * `ssebench agents`: the agents a run can name with --agent — the home's agents/ (built into the
 * release binary) — with the version their layers are named for, the wires they speak, whether
 * they make model calls, and where they run. An agent.yaml that does not load is one line on
 * stderr (the run would refuse it the same way) and the command exits 1 after listing the others.
 */
import { UserError } from "../errors.ts";
import { err, out, renderJson, renderTable, write } from "../output/terminal.ts";
import { VERSION } from "../version.ts";
import { findHome } from "./home.ts";
import { listAgents, loadAgent } from "./layers/agents.ts";
import { msg } from "./messages.ts";

export interface AgentListing {
  name: string;
  version: string;
  wires: string[];
  uses_model: boolean;
  mode: string;
  /** "built-in", or the folder SSEBENCH_HOME names */
  source: string;
}

export async function listedAgents(env: NodeJS.ProcessEnv): Promise<{ agents: AgentListing[]; problems: string[] }> {
  const home = findHome(env);
  const source = home.source === "env" ? home.agentsDir : "built-in";
  const agents: AgentListing[] = [];
  const problems: string[] = [];
  for (const name of listAgents(home.agentsDir)) {
    try {
      const a = await loadAgent(home.agentsDir, name);
      agents.push({ name, version: a.version ?? VERSION, wires: a.wires, uses_model: a.usesModel, mode: a.mode, source });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(e.message);
    }
  }
  return { agents, problems };
}

export async function agentsCommand(args: { json: boolean }, env: NodeJS.ProcessEnv): Promise<number> {
  const { agents, problems } = await listedAgents(env);
  for (const p of problems) err(p);
  if (args.json) write(renderJson(agents));
  else if (agents.length === 0) err(msg.noAgents());
  else {
    const rows = agents.map((a) => [a.name, a.version, a.wires.join(",") || "-", a.uses_model ? "yes" : "no", a.mode, a.source]);
    out(renderTable(["NAME", "VERSION", "WIRES", "USES MODEL", "MODE", "FROM"], rows));
  }
  return problems.length > 0 ? 1 : 0;
}
