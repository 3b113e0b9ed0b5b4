/** Every text `ssebench results` shows; tests assert these exact strings. */
export const msg = {
  notFound: (what: string) => `${what}: not a job (results/jobs/NAME) nor a folder of runs`,
  noRuns: (where: string) => `${where}: no runs found (no summary.json below it)`,
  unreadable: (file: string, detail: string) => `Ignoring ${file}: ${detail}`,
  compareArgs: () => "--compare takes two jobs or folders: ssebench results --compare JOB_A JOB_B",
  jsonAndCsv: () => "--json and --csv cannot be combined",
  flipsNone: (a: string, b: string) => `No task changed between ${a} and ${b}`,
} as const;
