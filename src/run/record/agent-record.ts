/**
 * summary.json `agent_run`: how the agent ran (the entrypoint driver, the CLI from npm, the wire
 * its model calls used; which agent and version is `provenance.agent`), the turns its dialog reports, and whether the run's model
 * budget stopped it. The wire and the budget come from the gateway's ledger (written by the host);
 * the turns from `archive/dialog.jsonl`'s closing `complete` entry, which the agent wrote: only a
 * bounded tail of it is read, as untrusted input, and a missing or malformed one gives null.
 */
import { join } from "node:path";
import { AGENT_DRIVER, DIALOG_FILE, type DialogEntry } from "../../contract/agent.ts";
import type { AgentRecord } from "../../formats/run/summary.ts";
import type { Agent } from "../layers/agents.ts";
import { readRunFile, readRunFileTail } from "./safe-read.ts";

const DIALOG_TAIL_BYTES = 64 * 1024;
const LEDGER_MAX_BYTES = 64 * 1024 * 1024;

/** The `complete` entry's turns, or null. */
export function dialogTurns(archiveDir: string): number | null {
  let tail: string;
  try {
    tail = readRunFileTail(join(archiveDir, DIALOG_FILE), DIALOG_TAIL_BYTES);
  } catch {
    return null;
  }
  const last = tail.trimEnd().split("\n").at(-1) ?? "";
  try {
    const entry = JSON.parse(last) as Partial<Record<keyof Extract<DialogEntry, { type: "complete" }>, unknown>>;
    return entry.type === "complete" && Number.isSafeInteger(entry.turns) && (entry.turns as number) >= 0 ? (entry.turns as number) : null;
  } catch {
    return null;
  }
}

interface LedgerLine {
  wire?: string;
  status?: number;
  error?: string;
}

/** The wires the run's answered calls used and how many calls the budget refused. */
export function ledgerFacts(runDir: string): { wires: string[]; budgetRefused: number } {
  let text = "";
  try {
    text = readRunFile(join(runDir, "model-calls.jsonl"), LEDGER_MAX_BYTES);
  } catch {
    return { wires: [], budgetRefused: 0 };
  }
  const wires = new Set<string>();
  let budgetRefused = 0;
  for (const line of text.split("\n")) {
    if (!line) continue;
    const entry = JSON.parse(line) as LedgerLine;
    if (entry.status === 200 && entry.wire && !entry.wire.endsWith("count_tokens")) wires.add(entry.wire);
    if (entry.status === 400 && entry.error?.startsWith("Budget exhausted")) budgetRefused++;
  }
  return { wires: [...wires].sort(), budgetRefused };
}

export function agentRecord(agent: Agent, cmd: string[], runDir: string, archiveDir: string, served: boolean): AgentRecord {
  const facts = served ? ledgerFacts(runDir) : { wires: [], budgetRefused: 0 };
  return {
    driver: cmd.length === 2 && cmd[0] === AGENT_DRIVER ? (cmd[1] as string) : null,
    cli: agent.npm ? `${agent.npm.package}@${agent.npm.version}` : null,
    wire: facts.wires.join(",") || null,
    turns: dialogTurns(archiveDir),
    budget_refused_calls: facts.budgetRefused,
  };
}
