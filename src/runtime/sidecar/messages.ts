/**
 * The texts of sidecar mode, both ends (docs/container-contract.md §13); tests assert these exact
 * strings. A start failure is said after "Failed to start agent: " (sandbox/agent-phase.ts).
 */
export const sidecarMsg = {
  // the task's entrypoint
  noConnection: (socket: string, seconds: number) => `the sidecar did not connect to ${socket} within ${seconds} s`,
  gone: () => "the sidecar's container ended before its agent started",
  closedEarly: () => "the sidecar's supervisor closed its connection before the agent started",
  linkFailed: (dir: string, detail: string) => `Cannot open the sidecar's sockets in ${dir}: ${detail}`,
  // the supervisor in the sidecar
  usage: () => "usage: ssebench-entrypoint sidecar-agent [--] <agent argv…>",
  noStart: (socket: string, detail: string) => `ssebench-entrypoint sidecar-agent: no start message on ${socket}: ${detail}`,
  notFound: (command: string) => `Executable not found in $PATH: "${command}"`,
} as const;
