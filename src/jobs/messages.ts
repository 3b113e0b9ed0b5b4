/** Every text of jobs (`ssebench run` with several trials) and `ssebench results`; tests assert these exact strings. */
export const msg = {
  // command line (exit 2)
  flagTwice: (flag: string) => `${flag} is given more than once; it takes one value`,
  jobRunId: () => "--run-id names one run; a job names its trials' runs itself (give the job a name with --job NAME)",
  jobName: (name: string) => `--job '${name}': a job name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
  tasksSyntax: (value: string) => `--tasks '${value}': use all, a glob such as 'html*', or @FILE (one task ID a line)`,
  tasksFileUnreadable: (file: string, detail: string) => `${file}: cannot be read: ${detail}`,
  tasksFileLine: (file: string, line: number, word: string) => `${file}:${line}: '${word}' is not a task ID`,
  noTasksMatch: (pattern: string, where: string) => `--tasks '${pattern}' matches no task of ${where}`,
  unknownTask: (id: string, where: string) => `Task ${id} is not in ${where}`,
  unknownTaskAt: (file: string, line: number, id: string, where: string) => `${file}:${line}: task ${id} is not in ${where}`,
  noAgent: () => "--agent is required (repeatable: --agent reference --agent dummy)",
  noTask: () => "--task or --tasks is required",
  jobsCount: (value: string) => `--jobs must be a positive whole number of containers at once (got '${value}')`,
  retries: (value: string) => `--retries must be a whole number from 0 to 10 (got '${value}')`,
  attempts: (value: string) => `--attempts must be a whole number from 1 to 100 (got '${value}')`,

  predictionLine: (file: string, line: number, what: string) => `${file}:${line}: ${what}`,
  predictionsEmpty: (file: string) => `${file}: no predictions (one {"task": ID, "patch": DIFF} a line)`,
  predictionsTooBig: (file: string, max: number) => `${file}: larger than ${max} bytes`,
  predictionsAlone: () => "--predictions gives the tasks and patches; it does not go with --task, --tasks, --agent, --model or --attempts",

  // job folder (exit 1)
  jobDiffers: (name: string, file: string) =>
    `Job ${name} was planned with other tasks, agents, models or attempts (${file}); resume it with just --job ${name}, or name a new job`,
  resumeOptions: (name: string, file: string) =>
    `Job ${name} keeps the options it was planned with (${file}); resume it with only --job, --jobs, --retries, --results, --require-pass or --json, or name a new job`,
  agentNameClash: (name: string, dirs: readonly string[]) =>
    `Two agents of the job are both named '${name}' (${dirs.join(", ")}); their results would mix: rename one folder and its agent.yaml name`,
  jobUnreadable: (file: string, detail: string) => `${file}: not a job plan: ${detail}`,
  jobMissing: (name: string, dir: string) => `Job ${name} does not exist in ${dir}; give --task and --agent to plan it`,
  jobLocked: (name: string, pid: number, lock: string) => `Job ${name} is being run by process ${pid} (${lock}); wait for it, or stop it first`,
  jobLockedUnknown: (name: string, lock: string) => `Job ${name} is being run by another process (${lock}); wait for it, or stop it first`,
  ioFailed: (path: string, cause: string) => `${path}: ${cause}`,
  jobIoFailed: (path: string, cause: string, name: string) =>
    `${path}: ${cause}; job ${name} stopped (the trials it was running are recorded as interrupted where that could still be written); run it again with --job ${name} once this is fixed`,
  lockFailed: (lock: string, detail: string) => `${lock}: cannot lock the job: ${detail}`,
  leftoversRemoved: (name: string, what: readonly string[]) => `Removed what a killed process of job ${name} left: ${what.join(", ")}`,
  leftoversUnsought: (detail: string) => `Could not look for what a killed process of the job left on the engine: ${detail}`,
  scratchKept: (path: string, detail: string) => `Could not remove ${path}, left by a killed process of the job: ${detail}`,
  trialsLine: (file: string, line: number) => `${file}:${line}: not a trial record; ignored`,
  trialsTornDropped: (file: string, bytes: number) =>
    `${file}: its last line was cut off (${bytes} bytes, a process stopped while writing it); dropped, so that trial runs again`,
  trialsTornTerminated: (file: string) => `${file}: its last line had no line end (a process stopped while writing it); the record is whole and kept`,

  // while running (stderr)
  jobPlanned: (name: string, total: number, todo: number, jobs: number) =>
    `Job ${name}: ${total} trials, ${todo} to run, ${jobs} at once`,
  trialDone: (n: number, total: number, label: string, outcome: string, seconds: number) =>
    `[${n}/${total}] ${label}: ${outcome} in ${seconds.toFixed(1)}s`,
  soFar: (passed: number, done: number, spent: number) =>
    `${passed}/${done} passed so far (${done > 0 ? ((passed / done) * 100).toFixed(1) : "0.0"}%)${spent > 0 ? `, $${spent.toFixed(4)} spent` : ""}`,
  retrying: (label: string, attempt: number, retries: number, seconds: number) =>
    `${label}: infrastructure error; retry ${attempt} of ${retries} in ${seconds}s`,
  stopping: (sig: string) => `Received ${sig}; starting no new trials, stopping the running ones (a later run with the same --job finishes the job)`,

  // the end (stdout)
  jobSummary: (name: string, total: number, passed: number, failed: number, errors: number, missing: number, spent: number) =>
    `Job ${name}: ${total} trials: ${passed} passed, ${failed} failed, ${errors} errors${missing ? `, ${missing} not run` : ""}${spent > 0 ? `; $${spent.toFixed(4)} spent` : ""}`,
  jobDir: (dir: string) => `Job directory: ${dir}`,
} as const;
