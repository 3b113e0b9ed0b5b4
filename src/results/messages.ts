/** Every text `ssebench results` shows; tests assert these exact strings. */
export const msg = {
  notFound: (what: string) => `${what}: not a job (results/jobs/NAME) nor a folder of runs`,
  noRuns: (where: string) => `${where}: no runs found (no summary.json below it)`,
  unreadable: (file: string, detail: string) => `Ignoring ${file}: ${detail}`,
  compareArgs: () => "--compare takes two jobs or folders: ssebench results --compare JOB_A JOB_B",
  jsonAndCsv: () => "--json and --csv cannot be combined",
  splitBy: (value: string) => `--split-by takes date (got '${value}')`,
  cutoffMissing: () => "--split-by date needs --cutoff YYYY-MM-DD: tasks published before that day against those published on or after it",
  cutoffBad: (value: string) => `--cutoff must be a day, YYYY-MM-DD (got '${value}')`,
  cutoffAlone: () => "--cutoff goes with --split-by date",
  splitWith: (flag: string) => `--split-by does not go with ${flag}`,
  noDays: () => "No task has a recorded day of publication (summary.json provenance.task_dates): runs record it from the task's upstream/sources.yaml",
  atifDir: (dir: string, detail: string) => `--atif ${dir}: cannot write the trajectories there: ${detail}`,
  atifInvalid: (runDir: string, problem: string) => `Ignoring ${runDir}: its trajectory is not valid ATIF (${problem})`,
  atifWritten: (n: number, dir: string, without: number) => `Wrote ${n} ATIF ${n === 1 ? "trajectory" : "trajectories"} to ${dir}${without > 0 ? ` (${without} ${without === 1 ? "trial has" : "trials have"} no dialog)` : ""}`,
  atifWithCompare: () => "--atif does not go with --compare",
  modelMismatch: (group: string, n: number, of: number, asked: readonly string[], answered: readonly string[]) =>
    `Note: ${n} of ${of} trials of ${group} were answered by another model than the model file's upstream_model ${asked.join(", ")}: ${answered.join(", ")} (summary.json provenance.model; check the proxy or server behind it)`,
  flipsNone: (a: string, b: string) => `No task changed between ${a} and ${b}`,
} as const;
