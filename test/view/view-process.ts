/** Runs `ssebench view` (the compiled binary) on a free port of 127.0.0.1 for a test. */
import { type RunningServer, startBinaryServer } from "../helpers/server.ts";

export type { RunningServer as RunningView };

export function startView(args: string[], cwd?: string): Promise<RunningServer> {
  return startBinaryServer(["view", "--port", "0", ...args], { stream: "stderr", url: / at (http:\/\/\S+) \(Ctrl-C stops\)$/, cwd });
}
