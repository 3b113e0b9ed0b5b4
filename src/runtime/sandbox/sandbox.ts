/**
 * Sandbox mode (docs/container-contract.md §5): set-up → agent phase with its hooks → end of the
 * agent phase → grading with its hooks → after-grading plugins → result.json, plugin report,
 * hand-over → the agent's status.
 */
import { agentPhase, endAgentPhase } from "./agent-phase.ts";
import { afterGrading, gradingPhase } from "./grading-phase.ts";
import { setUp } from "./set-up.ts";

export async function runSandbox(agentArgv: string[], env: Record<string, string | undefined>): Promise<number> {
  const sandbox = await setUp(env);
  const agent = await agentPhase(sandbox, agentArgv);
  const end = await endAgentPhase(sandbox);
  await gradingPhase(sandbox, agent, end);
  await afterGrading(sandbox, end);
  await sandbox.record.end();
  return agent.status;
}
