/** Every text the gateway and the model files show users; tests assert these exact strings. */
import { didYouMean } from "../output/close-names.ts";

export const msg = {
  // models/*.yaml and scripts (one line each, before anything is built)
  modelFile: (file: string, line: number, detail: string) => `${file}:${line}: ${detail}`,
  modelUnreadable: (file: string, detail: string) => `${file}: ${detail}`,
  modelNameMismatch: (file: string, name: string, stem: string) => `${file}: name '${name}' differs from the file name '${stem}'`,
  keyMissing: (file: string, name: string, variable: string) =>
    `${file}: the key of model ${name} is read from ${variable}, which is not set; export it (only the gateway sends it, to the model's upstream)`,
  unknownModel: (name: string, known: readonly string[]) => {
    const close = didYouMean(name, known);
    return `Unknown model '${name}'.${close ? ` Did you mean ${close}?` : ""} Available models: ${known.length > 0 ? known.join(", ") : "(none)"} (ssebench models lists them)`;
  },
  modelHidden: (file: string, name: string, builtIn: string) => `${file}: not used: the built-in model ${name} (${builtIn}) has its name`,
  budget: (value: string) => `--budget must be a positive amount of US dollars such as 10 or 0.5 (got '${value}')`,
  scriptMissing: (file: string, script: string) => `${file}: script ${script} does not exist`,

  // the gateway's answers (provider-shaped error bodies carry these)
  noKey: () => "No API key: send the run's key (SSE_API_KEY) as Authorization: Bearer, x-api-key or api-key",
  unknownKey: () => "Unknown API key: this gateway issued no such key, or its run has ended",
  otherModel: (asked: string, allowed: string) => `This key may use model ${allowed} only, not ${asked}`,
  wireNotServed: (model: string, wire: string) => `Model ${model} does not speak the ${wire} wire`,
  budgetSpent: (spent: number, budget: number) =>
    `Budget exhausted: this run spent $${spent.toFixed(4)} of its $${budget >= 0.01 ? budget.toFixed(2) : String(budget)} budget; no further model calls are answered`,
  badJson: () => "The request body is not a JSON object",
  modelNotName: () => "The request's model is not a model name (a string)",
  tooDeep: (depth: number) => `The request body nests JSON deeper than ${depth} levels`,
  internalError: (detail: string) => `The gateway failed on this call: ${detail}`,
  upstreamFailed: (detail: string) => `The model's upstream could not be reached: ${detail}`,
  upstreamSilent: (seconds: number) => `The model's upstream sent nothing for ${seconds} s`,
  answerTooLarge: (bytes: number) => `the answer is larger than ${bytes} bytes`,
  drainBounded: (seconds: number, bytes: number) =>
    `the client left and the answer's usage did not come within ${seconds} s and ${bytes} bytes; charged the call's upper bound`,
  storedContent: (param: string) =>
    `The request uses ${param}: content stored at the vendor, whose cost the gateway cannot bound against the run's budget; send the whole input instead`,
  runEnded: () => "the run ended before the answer did; charged the call's upper bound",
  upstreamError: (run: string, model: string, detail: string) =>
    `Run ${run}: the upstream of model ${model} failed a call: ${detail} (any later failures are in model-calls.jsonl)`,
  bodyTooLarge: (bytes: number) => `The request body is larger than ${bytes} bytes`,
  bodyTooSlow: (seconds: number) => `The request body did not arrive within ${seconds} s`,
  tooManyCalls: (max: number) => `This run has ${max} model calls in flight already; retry when one has ended`,
  clientLeft: (run: string, bytes: number) => `gateway: run ${run}: the client closed the connection while sending its request (${bytes} bytes received)`,
  bodyDropped: (run: string, why: string) => `gateway: run ${run}: dropped a connection: ${why}`,
  notFound: (path: string) => `No such route: ${path}`,

  // gateway serve
  serving: (where: string, models: readonly string[]) => `Gateway listening on ${where} for ${models.join(", ")}`,
  badPort: (value: string) => `--port must be a port number from 0 to 65535 (got '${value}')`,
  noModels: (dir: string) => `${dir}: no models/*.yaml to serve`,
  emptyModelFlag: () => "--model needs a model name (a <name>.yaml of the models folder); without --model every model is served",
  noModelsListed: (dirs: readonly string[]) => `No models in ${dirs.join(" or ")}`,
  modelsMissing: (dir: string) => `--models ${dir}: no such folder`,
  modelsNotFolder: (dir: string) => `--models ${dir}: not a folder; --models takes a folder of <name>.yaml models`,
  ledgerUnusable: (dir: string, detail: string) => `--ledger ${dir}: cannot keep model calls there: ${detail}`,
  issuedKey: (model: string, key: string) => `key for ${model}: ${key}`,
  cannotListen: (host: string, port: number, detail: string) => `Cannot listen on ${host}:${port}: ${detail}`,
  providerRule: (file: string, problem: string) => `${file}: ${problem}`,
} as const;
