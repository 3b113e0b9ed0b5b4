/**
 * Entry of the `ssebench-entrypoint` binary, the ENTRYPOINT of every run container
 * (docs/container-contract.md). Kept light: the agent must be exec'd within ~50 ms of start.
 */
import { ExitCode, UserError } from "./errors.ts";
import { msg } from "./runtime/messages.ts";
import { VERSION } from "./version.ts";
import { writeOut } from "./runtime/write-out.ts";
import { setNoNewPrivs } from "./runtime/privilege/no-new-privs.ts";
import { SIDECAR_AGENT_COMMAND, SIDECAR_MODE } from "./contract/sidecar.ts";

/** Before anything else of a run container's own modes: what they start inherits the flag. */
function noNewPrivs(): void {
  const problem = setNoNewPrivs();
  if (problem !== undefined) throw new UserError(msg.noNewPrivs(problem));
}

/** `env` is the process environment, read here once: each mode reads its settings from it (runtime/config.ts). */
async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  if (argv[0] === "--version") {
    writeOut(1, `ssebench-entrypoint ${VERSION}\n`);
    return 0;
  }
  if (argv[0] === "check") return (await import("./runtime/tool-api/check-command.ts")).runCheck(argv.slice(1), env);
  if (argv[0] === "agent-driver") return (await import("./agents/index.ts")).runDriver(argv.slice(1), env);
  if (argv[0] === "relay") {
    noNewPrivs();
    return (await import("./runtime/relay/command.ts")).runRelay(argv.slice(1));
  }
  if (argv[0] === SIDECAR_AGENT_COMMAND) {
    noNewPrivs();
    const { sidecarAgentDir } = await import("./runtime/config.ts");
    return (await import("./runtime/sidecar/supervisor.ts")).runSidecarAgent(argv.slice(1), env, sidecarAgentDir(env));
  }
  if (argv[0] === "artifact") return (await import("./runtime/plugins/artifact.ts")).writeManifest(env);
  if (argv[0] === "oracle") return (await import("./runtime/plugins/oracle/command.ts")).runOracle(env);
  if (argv[0] === "prepare") {
    // Allowed as PID 1 (a Dockerfile RUN step): it waits for each child it starts.
    const { runPrepare } = await import("./runtime/grading/prepare-command.ts");
    return runPrepare(env);
  }
  noNewPrivs();
  // The sandbox needs an init: a Bun PID 1 neither reaps orphans nor gets default signal actions.
  if (process.pid === 1) throw new UserError(msg.pid1());
  let i = 0;
  let mode = "sandbox";
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (a === "--mode" || a.startsWith("--mode=")) {
      const value = a === "--mode" ? argv[i + 1] : a.slice(7);
      if (value === undefined) throw new UserError(msg.usage(), ExitCode.usage);
      if (value !== "sandbox" && value !== SIDECAR_MODE) throw new UserError(msg.unknownMode(value), ExitCode.usage);
      mode = value;
      i += a === "--mode" ? 2 : 1;
      continue;
    }
    if (a.startsWith("-")) throw new UserError(msg.unknownFlag(a), ExitCode.usage);
    break;
  }
  const agent = argv.slice(i);
  // In sidecar mode the agent's argv is the sidecar's (its image's CMD), never this container's.
  if ((mode === SIDECAR_MODE) !== (agent.length === 0)) throw new UserError(msg.usage(), ExitCode.usage);
  if (mode === SIDECAR_MODE) return (await import("./runtime/sidecar/sidecar.ts")).runSidecar(env);
  const { runSandbox } = await import("./runtime/sandbox/sandbox.ts");
  return runSandbox(agent, env);
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UserError) {
      writeOut(2, `${e.message}\n`);
      process.exit(e.exitCode);
    }
    writeOut(2, `ssebench-entrypoint: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(ExitCode.internal);
  },
);
