/** Every user-facing text of the entrypoint; tests assert these exact strings. */
export const msg = {
  usage: () =>
    "usage: ssebench-entrypoint [--mode sandbox] [--] <agent argv…> | --mode sidecar | sidecar-agent [--] <agent argv…> | prepare | artifact | check <what> | --version",
  unknownMode: (mode: string) => `ssebench-entrypoint: unknown mode "${mode}" (modes: sandbox, sidecar)`,
  unknownFlag: (flag: string) => `ssebench-entrypoint: unknown flag "${flag}"`,
  pid1: () =>
    "ssebench-entrypoint: refusing to run as PID 1: start the container with an init (docker run --init)",
  noNewPrivs: (problem: string) => `ssebench-entrypoint: cannot set no_new_privs, refusing to run the agent without it: ${problem}`,
  oldBun: (version: string) => `ssebench-entrypoint: built with Bun ${version}; 1.4.0 or newer is required (older Bun ignores uid/gid)`,
  archiveRequired: () => "ssebench-entrypoint: SSE_ARCHIVE environment variable is required",
  badNumber: (name: string, value: string) =>
    `ssebench-entrypoint: ${name}=${JSON.stringify(value)} is not a positive number of seconds`,
  badMegabytes: (name: string, value: string) =>
    `ssebench-entrypoint: ${name}=${JSON.stringify(value)} is not a positive whole number of megabytes`,
  noUser: (name: string) =>
    `ssebench-entrypoint: user "${name}" does not exist; the tool layer must create it`,
  badCount: (name: string, value: string) => `ssebench-entrypoint: ${name}=${JSON.stringify(value)} is not a positive whole number`,
  badUid: (name: string, value: string) =>
    `ssebench-entrypoint: ${name}=${JSON.stringify(value)} is not a uid from 1000 to 2147483646`,
  sameUids: (uid: number) => `ssebench-entrypoint: SSE_MODEL_UID and SSE_RUNNER_UID are both ${uid}; each user needs its own`,
  uidTaken: (user: string, uid: number, holder: string) =>
    `ssebench-entrypoint: cannot give ${user} uid ${uid}: ${holder} already has that number`,
  reownFailed: (user: string, problem: string) => `ssebench-entrypoint: handing ${user}'s files to its new uid failed: ${problem}`,
  taskConfig: (path: string, problem: string) => `${path}: ${problem}`,
  prepareFailed: (problem: string) => `ssebench-entrypoint: preparing the source tree failed: ${problem}`,
  // grading
  buildFailed: () => "Build failed",
  pocFailed: (poc: string) => `PoC failed: ${poc}`,
  funcFailed: () => "Function test failed",
  intentFailed: () => "Intent test failed",
  applyFailed: () => "Patch apply failed",
  noCheck: () => "No check ran",
  fileTooLarge: (limitMb: number) => `Patch too large: the change has files over ${limitMb} MB`,
  changeTooLarge: (limitMb: number) => `Patch too large: the change's new or resized files add up to over ${limitMb} MB`,
  tooManyFiles: (limit: number) => `Patch too large: the change has over ${limit} new or resized files`,
  patchTooLarge: (limitMb: number) => `Patch too large: the patch is over ${limitMb} MB`,
  gradingTimeout: (secs: number) => `Timeout (${secs}s)`,
  interrupted: (signal: string, phase: string) => `Interrupted by ${signal} during ${phase}`,
  survivors: (user: string, pids: number[]) =>
    `processes of ${user} survived being stopped: ${pids.join(", ")}`,
  agentOutputLog: (check: string) => `[ssebench: the ${check} check's script and the agent's code it ran wrote what follows: agent output, which may hold anything that code could read]`,
  scriptMissing: (check: string, path: string) => `${check} script ${path} is missing or not executable`,
  brokenWithoutChange: (what: string) => `The ${what} fails without the agent's change too, so this environment cannot grade it`,
  graderCrash: (detail: string) => `Grader error: ${detail}`,
  // plugins
  // The reference's texts (Go's stat error included).
  pluginNoRunSh: (name: string, path: string) => `plugin "${name}": no run.sh in folder ${name}: stat ${path}: no such file or directory`,
  pluginNotExecutable: (name: string) => `plugin "${name}": ${name}/run.sh is not an executable file`,
  pluginStoppedAtAgentEnd: () => "stopped at the end of the agent phase",
  pluginExit: (code: number) => `exit status ${code}`,
  // model access (the run's gateway socket)
  modelKeyUnreadable: (dir: string, detail: string) => `Cannot read the run's model key in ${dir}: ${detail}`,
  modelFile: (path: string, problem: string) => `ssebench-entrypoint: the model file ${path} ${problem}`,
  modelPortBusy: (port: number, detail: string) => `Cannot listen on 127.0.0.1:${port} for the model: ${detail}`,
  relayUsage: () => "usage: ssebench-entrypoint relay HOST:PORT /path/to/unix.sock [HOST:PORT /path/to/unix.sock]...",
  relayBadPort: (port: string) => `ssebench-entrypoint relay: port ${port} is not a TCP port (0 to 65535)`,
  relayListen: (where: string, detail: string) => `ssebench-entrypoint relay: cannot listen on ${where}: ${detail}`,
  // results upload (upload-config.ts, results-upload.ts)
  uploadFile: (path: string, problem: string) => `ssebench-entrypoint: the upload file ${path} ${problem}`,
  uploadTimeout: (value: string) => `ssebench-entrypoint: SSE_UPLOAD_TIMEOUT must be a positive number of seconds, got ${JSON.stringify(value)}`,
} as const;
