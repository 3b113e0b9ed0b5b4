import { type ArgsDef, defineCommand } from "citty";
import type { Argv } from "../argv.ts";
import { catalogArg } from "./args.ts";

const args = {
    task: { type: "string", description: "Task ID (repeatable, or a,b: a job of several tasks)", valueHint: "ID" },
    tasks: { type: "string", description: "Tasks of a job: all, a glob such as 'html*', or @FILE (one ID a line)", valueHint: "SPEC" },
    agent: { type: "string", description: "Agent: a name `ssebench agents` lists, or an agent folder (a path with a '/'); repeatable", valueHint: "NAME" },
    model: {
      type: "string",
      description: "Model the agent uses, served to it by the gateway: a name `ssebench models` lists; ignored for agents that make no model calls; repeatable",
      valueHint: "NAME",
    },
    models: {
      type: "string",
      description: "Your folder of <name>.yaml models, searched after the built-in ones (default: $SSEBENCH_MODELS, else ~/.config/ssebench/models)",
      valueHint: "DIR",
    },
    attempts: { type: "string", description: "Trials of each task, agent and model in a job (default 1)", valueHint: "K" },
    jobs: { type: "string", description: "Containers at once in a job (default: from the CPUs and memory)", valueHint: "N" },
    job: { type: "string", description: "Name of the job (results/jobs/NAME); the same name again resumes it", valueHint: "NAME" },
    retries: { type: "string", description: "Retries of a trial ended by an infrastructure error (default 2)", valueHint: "R" },
    predictions: {
      type: "string",
      description: "Grade patches made elsewhere: a JSON Lines file of {task, patch, agent?, model?}, each a trial of the built-in patch agent",
      valueHint: "FILE",
    },
    json: { type: "boolean", description: "Run as a job and print its progress as JSON events on stdout, one object a line" },
    budget: { type: "string", description: "USD the run's model calls may spend (default 10); calls past it are refused", valueHint: "USD" },
    local: { type: "string", description: "Run the task from the dataset folder DIR (builds its case image)", valueHint: "DIR" },
    ...catalogArg,
    build: { type: "boolean", description: "Build the case image from a local copy of the task instead of pulling it" },
    plugin: { type: "string", description: "Install and run this plugin (repeatable; default: those enabled in plugins.yaml)", valueHint: "NAME" },
    mode: { type: "string", description: "sandbox or sidecar: where the agent runs (default: the agent's own mode, agent.yaml)", valueHint: "MODE" },
    difficulty: { type: "string", description: "How much checking the agent may ask for, 0 (all) to 4 (none); default 2", valueHint: "0-4" },
    timeout: { type: "string", description: "Agent time limit in seconds (default 3600)", valueHint: "SECONDS" },
    "grading-timeout": { type: "string", description: "Grading time limit in seconds (default: --timeout)", valueHint: "SECONDS" },
    "run-timeout": {
      type: "string",
      description: "Limit of the whole run: pull, builds, agent, grading, teardown (default --timeout + --grading-timeout + 1800)",
      valueHint: "SECONDS",
    },
    egress: { type: "string", description: "Network policy: restricted (default; open is not available in this build)", valueHint: "POLICY" },
    cpus: { type: "string", description: "CPU limit of the container (default: 2, or the host's CPUs if fewer)", valueHint: "N" },
    memory: { type: "string", description: "Memory limit of the container (default 4g)", valueHint: "SIZE" },
    "pids-limit": { type: "string", description: "Process limit of the container (default 4096)", valueHint: "N" },
    disk: { type: "string", description: "What the container may write to its own disk (default 20g): a quota where the engine allows, else watched", valueHint: "SIZE" },
    "run-id": { type: "string", description: "Name of the run's folder (default: UTC time + random suffix)", valueHint: "ID" },
    results: { type: "string", description: "Results folder (default: ./results)", valueHint: "DIR" },
    "require-pass": { type: "boolean", description: "Exit 1 unless the grade is passed" },
    backend: { type: "string", description: "Where containers run: local (default, this engine) or swarm (docs/backends.md)", valueHint: "NAME" },
    constraint: { type: "string", description: "Swarm placement constraint of each trial, e.g. node.labels.ssebench.role==runner (repeatable; --backend swarm)", valueHint: "EXPR" },
    "keep-container": { type: "boolean", description: "Keep the container (and its network) after the run" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: {
    name: "run",
    description: "Run an agent on a task in a container and grade the patch it leaves; several tasks, agents or attempts make a job",
  },
  args,
  /** One run, or a job when the command line asks for several trials (jobs/flags.ts). */
  async run({ args, data }) {
    const argv = data as Argv;
    const raw = {
      ...args,
      runTimeout: args["run-timeout"],
      gradingTimeout: args["grading-timeout"],
      pidsLimit: args["pids-limit"],
      runId: args["run-id"],
      requirePass: args["require-pass"],
      keepContainer: args["keep-container"],
    };
    const { checkSingleValued, isJob, matrixFlags } = await import("../jobs/flags.ts");
    checkSingleValued(argv);
    if (!isJob(argv, matrixFlags(argv))) {
      const { runCommand } = await import("../run/command.ts");
      return runCommand(raw, argv);
    }
    const { jobCommand } = await import("../jobs/command.ts");
    return jobCommand(raw, argv);
  },
});
