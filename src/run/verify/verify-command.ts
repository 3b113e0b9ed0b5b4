/** `ssebench dataset verify` behind the thin command file: a table (or JSON); exit 1 on any failure, 3 when repetitions disagree. */
import { join, resolve } from "node:path";
import { err, out, renderJson, renderTable } from "../../output/terminal.ts";
import { ExitCode, usageError } from "../../errors.ts";
import { DockerCli } from "../backends/docker.ts";
import { findHome } from "../home.ts";
import { msg } from "../messages.ts";
import { MAX_SECONDS } from "../options.ts";
import { verdictRow, verifyTasks } from "./verify.ts";
import { recordFromCommand, recordVerdicts, requireCheckout } from "./records-command.ts";

export interface VerifyArgs {
  tasks: string[];
  dir?: string;
  /** a built-in dataset's name (demo, debian): its folder in the home */
  catalog?: string;
  output?: string;
  timeout?: string;
  repeat?: string;
  json?: boolean;
  /** write each passing task's record into the dataset's verified.json (records.ts) */
  record?: boolean;
  /** record the passing verdicts of a finished verify --output folder instead of verifying */
  recordFrom?: string;
}

/** Enough to expose a flaky check; more is a typo (each repetition is two full runs). */
const MAX_REPEAT = 100;

function parseRepeat(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1) throw usageError(msg.positiveInt("--repeat", raw));
  if (n > MAX_REPEAT) throw usageError(msg.verifyRepeatTooMany(raw, MAX_REPEAT));
  return n;
}

export async function verifyCommand(args: VerifyArgs): Promise<number> {
  const timeout = args.timeout === undefined ? 1800 : Number(args.timeout);
  if (!/^[0-9]+$/.test(args.timeout ?? "1") || timeout < 1) {
    throw usageError(msg.positiveInt("--timeout", String(args.timeout)));
  }
  if (timeout > MAX_SECONDS.timeout) throw usageError(msg.tooManySeconds("--timeout", String(args.timeout), MAX_SECONDS.timeout));
  const repeat = parseRepeat(args.repeat);
  if (args.catalog !== undefined && args.dir !== undefined) throw usageError(msg.verifyDirAndCatalog());
  const builtIn = ["demo", "debian"];
  if (args.catalog !== undefined && !builtIn.includes(args.catalog)) throw usageError(msg.verifyCatalogName(args.catalog, builtIn));
  if (args.recordFrom !== undefined && (args.record || args.repeat !== undefined || args.output !== undefined)) throw usageError(msg.recordFromAlone());
  const home = findHome();
  const dir = args.dir ?? join(home.root, "datasets", args.catalog ?? "demo");
  if (args.recordFrom !== undefined || args.record) requireCheckout(home);
  if (args.recordFrom !== undefined) return recordFromCommand({ dir, from: args.recordFrom, tasks: args.tasks }, { docker: new DockerCli(), home, env: process.env });
  const { verdicts, interrupted } = await verifyTasks(
    {
      dir,
      tasks: args.tasks,
      output: args.output ?? join("results", "dataset-verify"),
      timeout,
      repeat,
    },
    {
      // The per-run logs hold everything else; docker invocations go to stderr with SSEBENCH_DEBUG=1.
      docker: new DockerCli(process.env.SSEBENCH_DEBUG ? (line) => err(`[debug] ${line}`) : undefined),
      home,
      env: process.env,
      handleSignals: true,
      onRepetition: (task, k, r, seconds) => err(msg.verifyRepetition(task, k, repeat, r.failures.length === 0, seconds, r.failures)),
      onTask: async (v) => {
        err(`${v.ok ? "ok" : "FAILED"} ${v.task} (${v.seconds.toFixed(1)}s)${v.failures.length > 0 ? `: ${v.failures.join("; ")}` : ""}`);
        for (const leak of v.leaks) err(`${v.task}: case image leak: ${leak}`);
        // each passing task is recorded as soon as it passed: a later failure or Ctrl-C keeps it
        if (args.record && v.ok) err(await recordVerdicts(resolve(dir), [v]));
      },
    },
  );
  if (args.json) out(renderJson(verdicts));
  else out(renderTable(["TASK", "REFERENCE", "DUMMY", "SECONDS", "RESULT"], verdicts.map(verdictRow)));
  if (interrupted) {
    err(`Interrupted; ${verdicts.length} task(s) verified before the signal`);
    return interrupted;
  }
  if (verdicts.some((v) => v.disagreements.length > 0)) return ExitCode.disagreement;
  return verdicts.every((v) => v.ok) ? ExitCode.ok : ExitCode.failure;
}
