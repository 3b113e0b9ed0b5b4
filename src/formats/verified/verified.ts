/**
 * arktype model of a dataset's `verified.json`: one verification record per task, written by
 * `ssebench dataset verify --record` and checked by `ssebench dataset records --check`
 * (docs/dataset-debian.md). The exported JSON Schema is `verified.schema.json`; a file is checked
 * with this model (only the record commands read it), its problems one `key: rule` line each.
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "../schema/model-info.ts";
import { CHECK_FIELDS, CHECK_STATUSES, RECORD_FIELDS, VERIFIED_FIELDS, VERIFIED_PATTERNS, WAY_FIELDS, WAYS, verifiedRule } from "./verified-rules.ts";

const sha256 = (description: string) => type(VERIFIED_PATTERNS.sha256).describe(description);
const secondsList = (description: string) => type("number >= 0").array().atLeastLength(1).describe(description);

export const checkOutcomeModel = type({
  "+": "reject",
  status: type.enumerated(...CHECK_STATUSES).describe("The check's outcome, the same in every repetition (a verify whose repetitions disagree records nothing)."),
  check_seconds: secondsList("How long the check took, per repetition."),
});

export const wayModel = type({
  "+": "reject",
  run_seconds: secondsList("How long the way's run took (image layers, agent, grading), per repetition."),
  checks: type({ "[string]": checkOutcomeModel }).describe("Each check the run graded, by name: build, function_test, intent_test, poc <file>; ' (original tree)' for a control run."),
});

export const verifiedRecordModel = type({
  "+": "reject",
  key: sha256("sha256 of task_files, base_recipe and grading_code: the record is current while this is what the checkout gives."),
  task_files: sha256("Digest of the task folder's files (the images lock's files_sha256 of them)."),
  base_recipe: sha256("Digest of the base image's recipe: images/base-images/common/ and generic-<language>/ (paths and contents)."),
  grading_code: sha256("Digest of ssebench's grading code: src/runtime/grading/, src/runtime/sandbox/grading-phase.ts and images/sandbox/Dockerfile, without comments and imports."),
  recorded: type(VERIFIED_PATTERNS.time).describe("When the verify finished (UTC)."),
  ssebench: type(VERIFIED_PATTERNS.text).describe("ssebench --version of the binary that verified."),
  repeats: type("number.integer >= 1").describe("How many times the task was verified (dataset verify --repeat), every repetition agreeing."),
  seconds: type("number >= 0").describe("Seconds of one verify (both runs and the leak audit), the mean over the repetitions."),
  audit_seconds: type("number >= 0").describe("Seconds the leak audit of the task's images took."),
  ways: type({ "+": "reject", reference: wayModel, dummy: wayModel }).describe("The reference agent's run (every check passes) and the dummy's (a PoC still triggers)."),
});

export const verifiedFileModel = type({
  "+": "reject",
  dataset: type(VERIFIED_PATTERNS.text).describe("The dataset's name (its folder)."),
  records: type({ "[string]": verifiedRecordModel }).describe("One record per task, by task id."),
});

export type VerifiedFile = typeof verifiedFileModel.infer;
export type VerifiedRecord = typeof verifiedRecordModel.infer;
export type VerifiedWay = typeof wayModel.infer;

export const verifiedModels: ModelInfo[] = [
  { name: "VerifiedFile", title: "SSEBench verification records", description: "A dataset's verified.json: the last passing dataset verify of each task.", fields: VERIFIED_FIELDS },
  { name: "VerifiedRecord", title: "VerifiedRecord", description: "One task's record.", fields: RECORD_FIELDS },
  { name: "VerifiedWays", title: "VerifiedWays", description: "The runs of both agents.", fields: WAYS },
  { name: "VerifiedWay", title: "VerifiedWay", description: "One agent's runs.", fields: WAY_FIELDS },
  { name: "CheckOutcome", title: "CheckOutcome", description: "One check's outcome and durations.", fields: CHECK_FIELDS },
];

/** The problems of a parsed verified.json, one `key: rule` line each (at most the first 5); [] when valid. */
export function verifiedProblems(data: unknown): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return ["must be a mapping with dataset and records"];
  const out = verifiedFileModel(data);
  if (!(out instanceof type.errors)) return [];
  const lines = [...new Set([...out].map((e) => verifiedRule(e.path as readonly PropertyKey[])))];
  return lines.sort().slice(0, 5);
}
