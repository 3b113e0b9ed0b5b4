/** Every text `ssebench run` and `dataset verify` show users; tests assert these exact strings. */
import { msg as gatewayMsg } from "../gateway/messages.ts";
import { didYouMean } from "../output/close-names.ts";

const mean = (name: string, known: readonly string[]) => {
  const close = didYouMean(name, known);
  return close ? ` Did you mean ${close}?` : "";
};
const list = (names: readonly string[]) => (names.length > 0 ? names.join(", ") : "(none)");

export const msg = {
  // docker
  dockerMissing: () =>
    "docker: command not found on PATH; install Docker (Debian: apt-get install docker.io) or fix PATH",
  engineDown: (address: string, detail: string) =>
    `Cannot reach the Docker engine at ${address} (${detail}); start it (setup/docker-engine.sh start) or set DOCKER_HOST`,
  dockerFailed: (what: string, words: string, code: number, detail: string) =>
    `${what} failed: \`docker ${words}\` exited with status ${code}${detail ? `: ${detail}` : ""}`,
  buildFailed: (layer: string, code: number, log?: string) =>
    `Building the ${layer} failed: \`docker build\` exited with status ${code} (${log ? `its output is in ${log}` : "its output is above"})`,
  buildLogUnwritable: (file: string, detail: string) => `Could not keep the build output in ${file}: ${detail}`,
  baseImageMissing: (image: string, home: string) =>
    `The base image ${image} is not on this machine; build it with bash ${home}/images/base-images/build.sh (offline: --root "$(bash ${home}/setup/debian-root-image.sh)")`,
  aborted: (reason: string) => `Stopped: ${reason}`,

  // pinned upstream sources (upstream/sources.yaml)
  sourcesInvalid: (file: string, detail: string) => `${file}: ${detail}`,
  sourceGone: (file: string, pkg: string, version: string, url: string) =>
    `${file}: ${url} is no longer in the archive (HTTP 404): ${pkg} ${version} has left it; pin a version the archive has`,
  sourceDownloadFailed: (file: string, url: string, detail: string) => `${file}: cannot download ${url}: ${detail}`,
  sourceHashMismatch: (file: string, url: string, actual: string, pinned: string) =>
    `${file}: ${url} has sha256 ${actual}, but sources.yaml pins ${pinned}`,
  sourceCacheCorrupt: (path: string, url: string, actual: string, pinned: string) =>
    `The cached copy ${path} of ${url} has sha256 ${actual}, not ${pinned}; delete it to fetch it again`,
  sourceCacheUnwritable: (dir: string, detail: string) =>
    `Cannot write the sources cache ${dir}: ${detail} (set SSEBENCH_SOURCES_CACHE to a writable folder)`,
  fetchingSource: (url: string) => `Fetching ${url}`,
  verifyDirAndCatalog: () => "ssebench dataset verify: --dir and --catalog both name the dataset; give one",
  verifyCatalogName: (name: string, known: readonly string[]) =>
    `ssebench dataset verify: --catalog takes a built-in dataset (${known.join(", ")}), not '${name}'; a folder is --dir DIR`,

  // command line (exit 2)
  runIdSyntax: (id: string) =>
    `--run-id '${id}': a run ID is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
  runIdLatest: () => "'latest' is not a run ID: it names the newest run of a task, model and agent",
  swarmModelNeedsUpload: () =>
    "--backend swarm with a model needs SSEBENCH_SWARM_RESULTS=upload (the default): the model's calls go home through the trial's relay, which a copy run has none of",
  swarmNoManager: (address: string, detail: string) =>
    `--backend swarm: the engine at ${address} is not a Swarm manager (${detail}); set SSEBENCH_SWARM_HOST to a manager's engine (docs/backends.md)`,
  swarmNodes: (value: string) =>
    `SSEBENCH_SWARM_NODES=${JSON.stringify(value)}: expected NODE-ID=ENGINE pairs separated by ',' (e.g. abc123=unix:///run/ssb-swarm/wkr.sock)`,
  swarmNotStarted: (service: string, seconds: number, state: string) =>
    `The Swarm trial ${service} did not start within ${seconds}s (SSEBENCH_SWARM_START_TIMEOUT): its task is ${state}`,
  swarmRejected: (service: string, state: string, detail: string) => `The Swarm trial ${service} ended ${state} before it ran: ${detail}`,
  swarmRelayFailed: (relay: string, detail: string) => `The results relay ${relay} did not start on this machine's engine: ${detail}`,
  swarmNodeDown: (service: string, node: string) => `The node ${node} running the Swarm trial ${service} went down`,
  swarmNoResults: (node: string) =>
    `No results collected: no engine address for node ${node} in SSEBENCH_SWARM_NODES (SSEBENCH_SWARM_RESULTS=copy needs one; the default, upload, does not)`,
  swarmUploadFailed: (reason: string) => `The trial's results did not come home: ${reason}`,
  swarmNumberSetting: (name: string, value: string) => `${name}=${JSON.stringify(value)}: expected a positive number`,
  swarmRegistrySetting: (name: string, value: string) => `${name}=${JSON.stringify(value)}: expected a registry address, host[:port][/path] in lower case`,
  swarmResultsSetting: (value: string) => `SSEBENCH_SWARM_RESULTS=${JSON.stringify(value)}: expected upload (the default) or copy`,
  swarmCopyFailed: (what: string, detail: string) => `Could not copy the trial's ${what} from its node: ${detail}`,
  leftoversUnlisted: (kind: string, label: string, detail: string) => `Could not list the ${kind}s labelled ${label}: ${detail}`,
  leftoverKept: (kind: string, ids: readonly string[], detail: string) => `Could not remove the ${kind}s ${ids.map((id) => id.slice(0, 12)).join(", ")} left by a killed process: ${detail}`,
  swarmLeftover: (what: string, detail: string) => `Could not remove ${what}: ${detail}`,
  constraintSyntax: (value: string) => `--constraint ${JSON.stringify(value)}: expected a placement constraint such as node.labels.ssebench.role==runner (ATTRIBUTE==VALUE or ATTRIBUTE!=VALUE)`,
  constraintNeedsSwarm: () => "--constraint places a trial's service on a Swarm: use it with --backend swarm",
  choice: (flag: string, value: string, choices: readonly string[]) =>
    `${flag} must be one of: ${choices.join(", ")} (got '${value}')`,
  difficulty: (value: string) => `--difficulty must be an integer from 0 to 4 (got '${value}')`,
  positiveInt: (flag: string, value: string) => `${flag} must be a positive whole number (got '${value}')`,
  tooManySeconds: (flag: string, value: string, max: number) =>
    `${flag} must be at most ${max} seconds (got '${value}')`,
  cpus: (value: string) => `--cpus must be a positive number of CPUs such as 1 or 1.5 (got '${value}')`,
  memory: (value: string) => `--memory must be a size such as 512m or 4g (got '${value}')`,
  disk: (value: string) => `--disk must be a size such as 800m or 20g (got '${value}')`,
  missingFlag: (flag: string) => `${flag} is required`,
  unexpectedArgument: (word: string) => `ssebench run: unexpected argument '${word}' (see 'ssebench run --help')`,
  pathSegment: (flag: string, value: string) =>
    `${flag} '${value}' cannot be used as a folder name in the results (letters, digits, '.', '_', '-' only)`,

  // what the engine accepts (docker info; exit 1, nothing started)
  cpusOutOfRange: (cpus: number, engine: number) =>
    `--cpus ${cpus}: the Docker engine accepts 0.01 to ${engine} (it has ${engine} CPUs)`,
  memoryTooSmall: (memory: string) => `--memory ${memory}: the Docker engine accepts no less than 6m`,
  memoryTooLarge: (memory: string, bytes: number) =>
    `--memory ${memory}: the Docker engine's machine has only ${(bytes / 1024 ** 3).toFixed(1)}g of memory`,
  diskLow: (dir: string, free: number, minGb: number) =>
    `Only ${(free / 1e9).toFixed(1)} GB free on the Docker engine's disk (${dir}), below ${minGb} GB; free some (ssebench's images: docker images '*/ssebench/*') or set SSEBENCH_MIN_FREE_GB`,
  minFreeSetting: (value: string) => `SSEBENCH_MIN_FREE_GB='${value}' is not a number of GB (0 turns the check off)`,
  containerNotStarted: (detail: string) => `The container did not start: ${detail}`,

  // §4.2 validation (exit 1, nothing started)
  modelRequired: (agent: string) =>
    `--model is required with --agent ${agent}; only agents that make no model calls (dummy, reference) run without one`,
  modelIgnored: (agent: string, model: string) =>
    `The ${agent} agent makes no model calls; ignoring --model ${model} (the run is filed under model 'none')`,
  egressSetting: (value: string) =>
    `SSEBENCH_EGRESS='${value}' is not a network egress policy; use one of: restricted, open`,
  egressOpen: () =>
    "--egress open is not available in this build: run containers have no network, so they cannot reach the internet; use --egress restricted",
  pluginSidecar: () => "--plugin applies to sandbox mode only",
  modeMismatch: (given: string, agent: string, mode: string) =>
    `--mode ${given}: agent '${agent}' runs in ${mode} mode (agent.yaml${mode === "sidecar" ? " mode: sidecar" : " has no mode: sidecar"}); leave --mode out or give --mode ${mode}`,
  sidecarSwarm: (agent: string) =>
    `agent '${agent}' runs in sidecar mode, which only the local backend runs: --backend swarm needs sandbox mode`,
  sidecarNpm: () => "npm applies to sandbox agents only (a sidecar agent's image brings its own programs)",
  sidecarBaseMissing: (where: string, agent: string, image: string) =>
    `${where}: agent '${agent}': the base image ${image} is not on this machine (a sidecar image is built offline, FROM images the engine has: build or pull it first; docs/agents.md "Sidecar agents")`,
  sidecarNotStarted: (detail: string) => `The sidecar container did not start: ${detail}`,
  unknownPlugins: (names: readonly string[]) => `unknown plugin(s): ${names.join(", ")}`,
  pluginNoRunSh: (name: string, dir: string) => `plugin '${name}': no run.sh in ${dir}`,
  pluginsSchema: (file: string, detail: string) => `${file} does not match schema.json: ${detail}`,
  pluginsYaml: (file: string, detail: string) => `${file}: ${detail}`,
  pluginTwice: (file: string, name: string) => `${file}: plugin '${name}' is declared twice`,
  /** `lister`: how to list the dataset's tasks */
  taskMissing: (id: string, dir: string, known: readonly string[] = [], lister = `ls ${dir}`) =>
    `Benchmark task ${id} does not exist in ${dir}.${mean(id, known)} Its tasks: ${lister}`,
  localMissing: (dir: string) => `--local ${dir}: no such dataset folder`,
  localNotFolder: (dir: string) => `--local ${dir}: not a folder; --local takes a dataset folder (its tasks are its subfolders)`,
  taskInvalid: (id: string, detail: string) => `Task ${id} is not a valid task: ${detail}`,
  patchAgentAlone: () =>
    "The patch agent grades patches made elsewhere: give them with --predictions FILE.jsonl (one {task, patch} a line)",
  noReferencePatch: (id: string) =>
    `Task ${id} has no reference patch (files.patch), so the reference agent cannot run it`,
  unknownAgent: (name: string, known: readonly string[]) =>
    `Unknown agent '${name}'.${mean(name, known)} Available agents: ${list(known)}`,
  agentInvalid: (file: string, detail: string) => `${file}: ${detail}`,
  noAgents: () => "No agents: this ssebench's agents/ folder has none",
  agentFolderMissing: (given: string, dir: string) =>
    `--agent ${given}: ${dir} is not an agent folder (no agent.yaml in it; see docs/agents.md "Writing your own agent")`,
  agentFileSymlink: (target: string) => `is a symlink (to ${target}); an agent's agent.yaml and Dockerfile must be regular files in its folder`,
  agentFileNotFile: () => "is not a regular file (a folder?); an agent's agent.yaml and Dockerfile must be regular files in its folder",
  agentNameReserved: (name: string) => `the name '${name}' is a built-in agent's; rename the folder and its agent.yaml name`,
  budgetStopped: (budget: number, refused: number) =>
    `The run's model budget of $${budget} ran out: the gateway refused ${refused} call${refused === 1 ? "" : "s"} whose worst case did not fit what was left (HTTP 400, budget_exceeded; see model-calls.jsonl), so the agent could not go on`,
  npmInstalling: (spec: string, dir: string) => `Installing ${spec} from npm into ${dir}`,
  npmInstallFailed: (spec: string, code: number, detail: string) =>
    `Installing ${spec} from npm failed: \`npm install\` exited with status ${code}${detail ? `: ${detail}` : ""}`,
  npmIntegrity: (spec: string, problems: string) => `Installing ${spec} from npm: the install does not match agent.yaml's pinned integrity (${problems}); nothing was kept`,
  npmFileMissing: (spec: string, path: string) => `Installing ${spec} from npm: ${path} is not in the install (agent.yaml npm.files)`,
  agentRefused: (where: string, agent: string, what: string, why: string) =>
    `${where}: agent '${agent}' may not use ${what} (${why})`,
  agentNoFrom: (where: string, agent: string) => `${where}: agent '${agent}' has no FROM instruction (an agent's files are built FROM scratch)`,
  agentBeforeFrom: (where: string, agent: string, keyword: string) =>
    `${where}: agent '${agent}' starts with '${keyword}' (only ARG may come before the first FROM)`,
  agentNoCmd: (where: string, agent: string) => `${where}: agent '${agent}' sets no CMD (the agent's command)`,
  unknownModel: gatewayMsg.unknownModel,
  agentWiresMissing: () => "an agent that makes model calls lists the wires it speaks (wires: [anthropic, chat, responses, gemini] or a part)",
  wireMismatch: (agent: string, agentWires: readonly string[], model: string, modelWires: readonly string[]) =>
    `The ${agent} agent speaks ${agentWires.join(", ")} but model ${model} speaks ${modelWires.join(", ")}; pick a model with a wire the agent speaks`,
  budget: gatewayMsg.budget,
  gatewayFailed: (folder: string, detail: string) =>
    `Cannot serve the model gateway in ${folder} (${detail}); set TMPDIR to a short, writable folder`,
  modelInvalid: (file: string, detail: string) => `${file}: ${detail}`,
  emulation: (host: string, arch: string) =>
    `This host is ${host}, so this task (built only for ${arch}) runs under ${arch} emulation, which is slow`,
  runDirExists: (dir: string) => `${dir} already has results; give the run another --run-id, or none to get a new ID`,
  homeMissing: (what: string, home: string) =>
    `${what} is missing from ${home}; set SSEBENCH_HOME to an ssebench checkout (with agents/ and images/sandbox/)`,
  entrypointMissing: (path: string) =>
    `${path} is missing; keep ssebench-entrypoint next to ssebench (as in the release archive), set SSEBENCH_ENTRYPOINT to it, or in a checkout build it with \`npm run build\` (the tool layer copies it into the image)`,
  homeNotEmbedded: () =>
    "This ssebench has no embedded agents and images (it runs from source outside a checkout); set SSEBENCH_HOME to an ssebench checkout",
  sourceMissing: (id: string) => `Task ${id} has no 'source' folder in its config, so its tool layer cannot be built`,

  // while running
  signalReceived: (sig: string) => `Received ${sig}; stopping the container, then recording the run`,
  runTimeLimit: (seconds: number, phase: string) =>
    `The run exceeded its time limit of ${seconds}s during ${phase}; stopping it`,
  containerFailed: (code: number) => `Agent container stopped with a non-zero exit status: ${code}`,
  noResult: () => "Evaluator produced no output; recording framework failure.",
  noResultError: () => "No result: evaluator did not produce output",
  noAnsweredCall: (code: number) =>
    `The agent exited with status ${code} without any answered model call; check the model's key and upstream (model-calls.jsonl)`,
  upstreamFailedRun: (first: string) =>
    `The model's provider failed the agent's calls (first: ${first}; see model-calls.jsonl); the run is not graded (an infrastructure error: a job retries it)`,
  oomKilled: (memory: string) => `The container ran out of memory (--memory ${memory}) and was killed`,
  diskExceeded: (bytes: number, limit: string) => `The container wrote ${bytes} bytes to its own disk, over --disk ${limit}, and was stopped`,
  oomWarning: (memory: string) =>
    `The container hit its memory limit (--memory ${memory}): the kernel killed a process in it`,
  interrupted: (why: string) => `The run was interrupted (${why}) before grading finished`,
  pluginReport: (file: string, detail: string) => `Ignoring the unreadable plugin report ${file}: ${detail}`,
  resultUnreadable: (file: string, detail: string) => `${file}: cannot be read: ${detail}`,
  resultContradicts: (detail: string) => `result.json contradicts its checks (${detail}); the run is not graded`,
  latestLink: (link: string, name: string, detail: string) => `Could not point ${link} at ${name}: ${detail}`,
  containerKept: (id: string) => `Kept the container ${id}; remove it with: docker rm --force --volumes ${id}`,
  // the Result line
  pocsLine: (fixed: number, total: number) =>
    fixed === total
      ? `${fixed}/${total} PoCs no longer trigger`
      : total === 1
        ? "the PoC still triggers"
        : `${total - fixed}/${total} PoCs still trigger`,
  agentTimedOut: (seconds: number) => `the agent timed out after ${seconds}s (--timeout)`,
  gradingTimedOut: (seconds: number) => `grading timed out after ${seconds}s (--grading-timeout)`,
  interruptedBy: (reason: string) =>
    reason === "SIGINT"
      ? "interrupted by SIGINT (Ctrl-C)"
      : reason.startsWith("SIG")
        ? `interrupted by ${reason}`
        : reason === "run time limit"
          ? "stopped at the run time limit (--run-timeout)"
          : `stopped (${reason})`,
  noCheckRan: () => "no check ran",
  /** The last line of a run with a model: what it cost (the gateway's ledger). */
  costLine: (usd: number, calls: number, t: { input: number; output: number; cache_read: number; cache_write: number }) => {
    const n = (x: number) => x.toLocaleString("en-US");
    return `Cost: $${usd.toFixed(4)} for ${n(calls)} model call${calls === 1 ? "" : "s"}; tokens: ${n(t.input)} in, ${n(t.output)} out, ${n(t.cache_read)} cache read, ${n(t.cache_write)} cache write`;
  },
  buildingLayer: (layer: string, image: string) => `Building the ${layer} ${image}`,
  layerCached: (layer: string, image: string) => `The ${layer} ${image} is up to date`,
  storeWhat: (volume: string) => `Filling the agent store ${volume}`,
  swarmStoreWhat: (volume: string, node: string) => `Filling the agent store ${volume} on node ${node}`,
  swarmStoreNeedsNodes: (volume: string) =>
    `--backend swarm: the agent's files are kept once per node in the volume ${volume}, filled through each node's engine; name them in SSEBENCH_SWARM_NODES (NODE-ID=ENGINE,…; docs/backends.md)`,
  storeFilling: (volume: string) => `Filling the agent store ${volume} (the agent's files, kept once on this engine)`,
  storeCached: (volume: string) => `The agent store ${volume} is up to date`,

  // dataset verify
  leakVcs: (path: string, source: string) => `${path}: version-control metadata of a repository that holds the source ${source} (its history can hold the fix)`,
  leakWritable: (path: string) => `${path}: world-writable (the agent could plant a file there that grading runs)`,
  leakMore: (n: number) => `… and ${n} more`,
  leakAuditFailed: (image: string, why: string) => `could not audit the case image ${image}: ${why}`,
  recordsUnreadable: (file: string, why: string) => `${file}: cannot read it: ${why}`,
  recordsInvalid: (file: string, problem: string) => `${file}: ${problem}`,
  recordsUnwritable: (file: string, why: string) => `${file}: cannot write it: ${why}`,
  recordsLocked: (lock: string) => `${lock}: another writer has held the lock for 2 minutes; delete it if no dataset verify is running`,
  recordMissing: (id: string, file: string, dir: string) => `${id}: no record in ${file}; verify it with: ssebench dataset verify --dir ${dir} --record ${id}`,
  recordStale: (id: string, file: string, changed: readonly string[], recorded: string, dir: string) =>
    `${id}: its record in ${file} is stale: ${changed.join(", ")} changed since ${recorded}; verify it again with: ssebench dataset verify --dir ${dir} --record ${id}`,
  recordOrphan: (id: string, file: string, dir: string) => `${id}: ${file} has a record of a task the dataset does not have; drop it with: ssebench dataset records ${dir} --prune`,
  recordsNeedCheckout: (root: string) => `verification records need a checkout of ssebench (the grading code is read from its src/); ${root} is not one`,
  recordNotPassing: (id: string, out: string) => `${id}: the verify in ${out} did not pass; nothing recorded`,
  recordNoVerdict: (id: string, out: string) => `${id}: ${out} has no verdict of it (tasks/${id}.json)`,
  recordOtherInputs: (id: string, out: string, changed: readonly string[]) => `${id}: the verify in ${out} graded other inputs than the checkout has now (${changed.join(", ")} changed); verify it again`,
  recordOtherImage: (id: string, out: string, why: string) => `${id}: cannot tell that the verify in ${out} graded the current files: ${why}; verify it again`,
  recordFromAlone: () => "--record-from records a finished verify: it takes no --record, --repeat or --output",
  recorded: (n: number, file: string) => `recorded ${n} task(s) in ${file}`,
  leakViewAuditFailed: (image: string, why: string) => `could not audit what the agent can read in ${image}: ${why}`,
  leakText: (path: string, secrets: readonly string[]) => `${path}: the agent can read it, and it names the task's CVE, fix commit or Debian patch (${secrets.join(", ")})`,
  leakLeftover: (path: string) => `${path}: a leftover of patching (.orig/.rej) in the source tree`,
  leakDebianPatch: (path: string) => `${path}: a patch file of the Debian package, readable by the agent`,
  leakHistory: (source: string, commits: number) => `${source}: its repository has ${commits} commits; one is allowed (older ones can hold the fix)`,
  leakCommitMessage: (source: string, secrets: readonly string[]) => `${source}: its commit message names the task's CVE, fix commit or Debian patch (${secrets.join(", ")})`,
  verifyNoTasks: (dir: string) => `${dir}: no tasks to verify`,
  noTaskWithin: (dir: string, seconds: number) => `${dir}: no task's record says its verify took at most ${seconds} s (--within)`,
  withinNeedsSample: () => "--within SECONDS chooses among the tasks for --sample SEED; give --sample too",
  badWithin: (text: string) => `--within ${text}: expected a number of seconds above 0`,
  verifyUnknownTasks: (dir: string, names: readonly string[]) => `no such task in ${dir}: ${names.join(", ")}`,
  verifyOutcomeIn: (outcome: string, reps: readonly number[]) => `${outcome} in ${reps.join(", ")}`,
  verifyDisagreement: (agent: string, check: string, sides: readonly string[]) => `repetitions disagree on ${agent} ${check}: ${sides.join("; ")}`,
  verifyInRepetitions: (reps: readonly number[], failure: string) => `${reps.length === 1 ? "repetition" : "repetitions"} ${reps.join(", ")}: ${failure}`,
  verifyRepetition: (task: string, k: number, n: number, ok: boolean, seconds: number, failures: readonly string[]) =>
    `${task}: repetition ${k}/${n} ${ok ? "ok" : "FAILED"} (${seconds.toFixed(1)}s)${failures.length > 0 ? `: ${failures.join("; ")}` : ""}`,
  verifyRepeatTooMany: (value: string, max: number) => `--repeat must be at most ${max} (got '${value}')`,
} as const;

/** Pushes to a registry (backends/registry-push.ts): a Swarm job's layers, `dataset publish`'s case images. */
export const pushMsg = {
  noLocalImage: (local: string) => `there is no local image ${local}`,
  tagFailed: (local: string, ref: string, stderr: string) => `docker tag ${local} ${ref} failed: ${stderr}`,
  pushFailed: (ref: string, stderr: string) => `docker push ${ref} failed: ${stderr}`,
  noDigest: (ref: string) => `docker push ${ref} did not report a digest`,
  badRegistry: (registry: string) => `--registry ${JSON.stringify(registry)} is not a registry address (host[:port][/path], lower case)`,
};
