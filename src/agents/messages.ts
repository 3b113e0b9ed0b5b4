/** Every text `ssebench-entrypoint agent-driver NAME` prints about bad input; tests assert them. */
const who = "ssebench-entrypoint agent-driver";

export const driverMsg = {
  unknownDriver: (name: string, drivers: readonly string[]) => `${who}: unknown agent '${name}' (drivers: ${drivers.join(", ")})`,
  extraArgs: (extra: readonly string[]) => `${who}: takes one agent name, not also ${extra.map((a) => `'${a}'`).join(" ")}`,
  notSet: (name: string) => `${who}: ${name} is not set (the driver runs inside a run, started by ssebench:agent)`,
  badTaskFile: (file: string, detail: string) => `${who}: the task brief ${file} (SSE_TASK_FILE) cannot be read: ${detail}`,
};
