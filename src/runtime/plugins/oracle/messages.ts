/** The oracle plugin's lines (asserted as exact strings by test/runtime/oracle*.test.ts). */
export const oracleMsg = {
  noModel: () => "No LLM configured (SSE_API_KEY, SSE_BASE_URL unset)",
  noFinalPatch: (path: string) => `No final.patch at ${path} (the change was not captured): nothing to review`,
  emptyPatch: () => "The agent's final.patch is empty: nothing to review",
  noReference: () => "The task has no reference patch (files.patch in config.yaml)",
  unreadable: (what: string, path: string, why: string) => `Cannot read ${what} ${path}: ${why}`,
  unreachable: (base: string, why: string) => `The model gateway at ${base} is unreachable: ${why}`,
  refused: (status: number, why: string) => `The model answered ${status}: ${why}`,
  notJson: (status: number, start: string) => `The model's answer (status ${status}) is not JSON: ${start}`,
  noVerdict: () => "The model gave no VERDICT line; recorded as unsure",
  wrote: (verdict: string, path: string) => `[oracle] verdict: ${verdict}; review in ${path}`,
  failed: (why: string) => `[oracle] failed: ${why}`,
  skipped: (why: string) => `[oracle] skipped: ${why}`,
};
