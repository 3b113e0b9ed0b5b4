/**
 * arktype model of a task's `sse/config.yaml` (spec §0.1, reference model `TaskMetadata`). The
 * validator and the exported JSON Schema both come from here. Two rules live outside arktype and
 * are applied around it (see validate-model.ts and schema/json-schema.ts): strings are stripped before the
 * checks, and task_description needs at least one set field (a narrow here, an anyOf in the schema).
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import { LANGUAGES, ORIGINALITIES, TASK_ID_MAX_LENGTH, TASK_ID_PATTERN } from "../patterns.ts";
import type { ModelInfo } from "../schema/model-info.ts";
import { AT_LEAST_ONE_MESSAGE } from "../schema/schema-rules.ts";



const imagePath = type("string >= 1").and(/^[^/]/);
const optionalPath = (description: string) => imagePath.or("null").describe(description).default(null);
const optionalPaths = (description: string) => imagePath.array().or("null").describe(description).default(null);
const optionalText = (description: string) => type("string | null").describe(description).default(null);

// Defaults may not be filled in yet when the narrow runs on an otherwise failing config.
const isSet = (value: string | string[] | null | undefined): boolean => (value == null ? false : value.length > 0);

export const taskDescriptionModel = type({
  "+": "reject",
  issue: optionalText("The issue text shown to the agent."),
  crash_report: optionalPaths("Crash reports shown to the agent, as paths under /ssebench."),
  bug_description: optionalText("A short description of the bug shown to the agent."),
}).narrow(
  (d, ctx) => isSet(d.issue) || isSet(d.crash_report) || isSet(d.bug_description) || ctx.reject({ expected: AT_LEAST_ONE_MESSAGE }),
);

export const scriptsModel = type({
  "+": "reject",
  build: optionalPath("Builds the project in the case image (the build check)."),
  run: optionalPath("Runs one proof of concept given as its argument (the poc check)."),
  test: optionalPath("Runs the project's tests (the function_test and intent_test checks)."),
});

export const filesModel = type({
  "+": "reject",
  patch: optionalPath("The upstream fix as a diff of the source tree."),
  future_test: optionalPath("Tests added with the fix, as a diff; the intent_test check applies them."),
  security_test: optionalPath("A regression test for the vulnerability, as a diff (reference only)."),
  intent_test: optionalPath("Tests of the intended behaviour, as a diff (reference only)."),
  poc: optionalPaths("Proof-of-concept inputs, each run with scripts.run."),
});

export const taskConfigModel = type({
  "+": "reject",
  id: type(new RegExp(TASK_ID_PATTERN))
    .and(`string <= ${TASK_ID_MAX_LENGTH}`)
    .describe("Task id: the name of the task's folder."),
  project: type(/\S/).describe("Name of the upstream project."),
  repository: type(/^https:\/\/\S+$/).describe("HTTPS URL of the upstream repository."),
  language: type.enumerated(...LANGUAGES).describe("Language of the project."),
  source: type(/^\/\S*$/).describe("Absolute path of the project's source tree in the case image."),
  task_description: taskDescriptionModel,
  scripts: scriptsModel,
  files: filesModel,
  sanitizer: optionalText("Sanitizer the project is built with, such as address."),
  type: optionalText("Kind of vulnerability."),
  binary: optionalText("The program that the proofs of concept crash."),
  trigger_commit: optionalText("Upstream commit that introduced the bug."),
  patch_commit: optionalText("Upstream commit that fixed the bug."),
  reference: type("string[] | null").describe("Links to advisories and discussions.").default(null),
  originality: type.enumerated(...ORIGINALITIES, null).describe("Whether the bug is public or crafted.").default(null),
});

/** Layout of the task-config models: names, titles and declared field order (pydantic's). */
export const taskConfigModels: ModelInfo[] = [
  {
    name: "TaskMetadata",
    title: "SSEBench task config",
    description: "A task's sse/config.yaml.",
    fields: ["id", "project", "repository", "language", "source", "task_description", "scripts", "files", "sanitizer", "type", "binary", "trigger_commit", "patch_commit", "reference", "originality"],
  },
  {
    name: "TaskDescription",
    title: "TaskDescription",
    description: "What the agent is told about the vulnerability. At least one field must be set.",
    fields: ["issue", "crash_report", "bug_description"],
  },
  {
    name: "Scripts",
    title: "Scripts",
    description: "Scripts the grader runs in the case image, as paths under /ssebench.",
    fields: ["build", "run", "test"],
  },
  {
    name: "Files",
    title: "Files",
    description: "Reference material the agent never sees, as paths under /ssebench.",
    fields: ["patch", "future_test", "security_test", "intent_test", "poc"],
  },
];
