/**
 * Sidecar mode, the task container's side (docs/container-contract.md §13): sandbox mode's phases
 * with the agent elsewhere. Set-up as in a sandbox (no plugins), the sockets for the sidecar,
 * the agent phase over them, then the same end of the phase (every process of the agent's user
 * killed: the sidecar shares this container's process namespace), grading and hand-over.
 * SIGUSR1 from the host says the sidecar's container ended, so a supervisor that never connected
 * is not waited for.
 */
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { notGraded } from "../../formats/run/result.ts";
import { agentModelTarget } from "../relay/model-access.ts";
import { endAgentPhase } from "../sandbox/agent-phase.ts";
import { afterGrading, gradingPhase } from "../sandbox/grading-phase.ts";
import { type Sandbox, setUp } from "../sandbox/set-up.ts";
import { SidecarLink } from "./link.ts";
import { sidecarAgentPhase } from "./agent-phase.ts";
import { sidecarMsg } from "./messages.ts";

export async function runSidecar(env: Record<string, string | undefined>): Promise<number> {
  let link: SidecarLink | undefined;
  let gone = false;
  process.on("SIGUSR1", () => {
    gone = true;
    link?.sidecarGone(sidecarMsg.gone());
  });
  const sandbox = await setUp(env, { plugins: false });
  link = await openLink(sandbox);
  if (gone) link.sidecarGone(sidecarMsg.gone());
  const agent = await sidecarAgentPhase(sandbox, link);
  const end = await endAgentPhase(sandbox);
  await sandbox.record.gate(link.close());
  await gradingPhase(sandbox, agent, end);
  await afterGrading(sandbox, end);
  await sandbox.record.end();
  return agent.status;
}

/** The sockets, or the run recorded as not graded (infra) when they cannot be made. */
async function openLink(s: Sandbox): Promise<SidecarLink> {
  const { cfg, record } = s;
  try {
    return await SidecarLink.open({
      dir: cfg.sidecar.dir,
      agent: s.model,
      toolTarget: new URL(s.tools.url).host,
      modelTarget: agentModelTarget(),
      agentLog: join(cfg.results, "agent.log"),
    });
  } catch (e) {
    const why = sidecarMsg.linkFailed(cfg.sidecar.dir, e instanceof Error ? e.message : String(e));
    record.patch = notGraded("infra", why);
    await record.end();
    throw new UserError(why);
  }
}
