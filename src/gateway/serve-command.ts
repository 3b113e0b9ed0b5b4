/**
 * `ssebench gateway serve`: the gateway on its own (for a cluster, or to smoke-test an agent set-up
 * by hand): loads the chosen models, issues one key per model with a budget, prints the keys,
 * listens on TCP (127.0.0.1 by default) and stops on SIGTERM/SIGINT with exit 0.
 */
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { describeCause, ExitCode, UserError, usageError } from "../errors.ts";
import { DEFAULT_BUDGET_USD, type RunKey } from "./keys.ts";
import { msg } from "./messages.ts";
import { findModel, modelFolders } from "./model-folders.ts";
import { listModelNames, loadModelFile } from "./models.ts";
import { Gateway, servedModel } from "./server.ts";

export const DEFAULT_GATEWAY_PORT = 4000;

export interface ServeArgs {
  /** the built-in models folder */
  builtIn: string;
  /** --models DIR: the user's folder, searched after the built-in one (model-folders.ts) */
  models?: string;
  /** the models to serve (undefined: every model in the folder) */
  names: string[] | undefined;
  host?: string;
  port?: string;
  budget?: string;
  ledger?: string;
}

/** The ledger writes in the background and only counts failed writes: a folder it cannot use is refused before serving. */
function usableLedger(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) throw new Error("not a folder");
    accessSync(dir, constants.W_OK);
  } catch (cause) {
    throw new UserError(msg.ledgerUnusable(dir, describeCause(cause)));
  }
}

export async function serveGateway(args: ServeArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const port = args.port === undefined ? DEFAULT_GATEWAY_PORT : /^\d{1,5}$/.test(args.port) && Number(args.port) <= 65535 ? Number(args.port) : Number.NaN;
  if (Number.isNaN(port)) throw usageError(msg.badPort(args.port ?? ""));
  const budget = args.budget === undefined ? DEFAULT_BUDGET_USD : Number(args.budget);
  if (!/^[0-9]*\.?[0-9]+$/.test(args.budget ?? "1") || !(budget > 0)) throw usageError(msg.budget(args.budget ?? ""));
  if (args.names?.length === 0) throw usageError(msg.emptyModelFlag());
  const folders = modelFolders(args.builtIn, env, args.models);
  // Without --model: every model of --models DIR when given, else the built-in ones.
  const dir = (args.models === undefined ? folders[0] : folders.at(-1))?.dir as string;
  const ledger = args.ledger ? resolve(args.ledger) : undefined;
  if (ledger) usableLedger(ledger);
  const names = args.names ?? listModelNames(dir);
  if (names.length === 0) throw new UserError(msg.noModels(dir));
  const gateway = new Gateway();
  const lines: string[] = [];
  const runs: RunKey[] = [];
  for (const name of names) {
    const { file } = findModel(folders, name);
    const run = gateway.issue(`serve-${name}`, servedModel(await loadModelFile(file, env)), budget, ledger);
    runs.push(run);
    lines.push(msg.issuedKey(name, run.key));
  }
  const hostname = args.host?.trim() || "127.0.0.1";
  let server: ReturnType<Gateway["serveTcp"]>;
  try {
    server = gateway.serveTcp(hostname, port);
  } catch (e) {
    throw new UserError(msg.cannotListen(hostname, port, e instanceof Error ? e.message : String(e)));
  }
  return new Promise<number>((done) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server.stop(true);
      // Calls whose clients left are read on to their usage (a grace, then charged), then recorded.
      Promise.all(runs.map(async (r) => {
        await gateway.settleAll(r);
        await r.ledger?.flush();
      })).then(() => done(ExitCode.ok));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    process.stdout.write(`${lines.join("\n")}\n`);
    process.stderr.write(`${msg.serving(`http://${hostname}:${server.port}`, names)}\n`);
  });
}
