/** Every text `ssebench view` says outside its pages; tests assert these exact strings. */
export const msg = {
  notFound: (what: string) => `${what}: not a job (results/jobs/NAME), a job folder nor a folder of runs`,
  badPort: (value: string) => `--port must be a whole number from 0 to 65535 (got '${value}')`,
  cannotListen: (host: string, port: number, detail: string) => `Cannot listen on ${host}:${port}: ${detail}`,
  serving: (jobs: number, folders: number, url: string) =>
    `Serving ${jobs} job${jobs === 1 ? "" : "s"} and ${folders} folder${folders === 1 ? "" : "s"} of runs at ${url} (Ctrl-C stops)`,
  notLoopback: (host: string) => `${host} is not a loopback address: anyone who can reach it can read these results (agents' patches, logs and dialogs)`,
  stopping: (signal: string) => `Received ${signal}; stopping`,

  // HTTP answers (text/plain)
  pageNotFound: "404 page not found\n",
  runNotFound: "404 no such run in the results folders served here\n",
  fileNotFound: "404 no such file in this run folder (links and special files are never served)\n",
  fileTooLarge: (bytes: number) => `413 this file is ${bytes} bytes, more than the viewer serves; open it on disk\n`,
  badHost: "403 this viewer answers only requests addressed to the host it listens on\n",
  methodNotAllowed: "405 method not allowed\n",
} as const;
