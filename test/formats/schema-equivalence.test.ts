/**
 * One source of truth: the arktype model and the JSON Schema exported from it must accept and
 * reject the same task configs (spec §0.1's list), checked with a real JSON Schema validator.
 * Also pins the two rules that arktype cannot export and that are added around it.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { validTaskConfig } from "./fixtures.ts";
import { checkFormat, EXPORTED_SCHEMAS, loadFormats, schemaOf } from "../../src/formats/schemas.ts";

await loadFormats(...EXPORTED_SCHEMAS.map((s) => s.name));

const good = validTaskConfig;

const without = (key: keyof typeof good) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== key));

const rejected: [string, unknown][] = [
  ["unknown key", { ...good, unknown: 1 }],
  ["missing repository", without("repository")],
  ["ssh repository", { ...good, repository: "git@example.org:demo.git" }],
  ["id with a space", { ...good, id: "has space" }],
  ["relative source", { ...good, source: "src/demo" }],
  ["originality not in the list", { ...good, originality: "Self Craft" }],
  ["blank issue only", { ...good, task_description: { issue: " " } }],
  ["empty crash_report only", { ...good, task_description: { crash_report: [] } }],
  ["extra scripts key", { ...good, scripts: { ...good.scripts, lint: "lint.sh" } }],
  ["absolute poc path", { ...good, files: { poc: ["/ssebench/pocs/poc.bin"] } }],
  ["language not in the list", { ...good, language: "java" }],
  ["id as a number", { ...good, id: 12 }],
  ["scripts as a list", { ...good, scripts: [] }],
  ["a list, not a mapping", [good]],
];

const accepted: [string, unknown][] = [
  ["the good config", good],
  ["empty scripts and files", { ...good, scripts: {}, files: {} }],
  ["empty issue beside a bug description", { ...good, task_description: { issue: "", bug_description: "none" } }],
  ["crash report only", { ...good, task_description: { crash_report: ["reports/crash.txt"] } }],
  ["every optional key null", { ...good, sanitizer: null, reference: null, originality: null, type: null }],
  ["every optional key set", { ...good, sanitizer: "address", reference: ["https://x"], originality: "crafted", trigger_commit: "abc" }],
];

const ajv = new Ajv2020({ strict: true, allErrors: true });
const schemaValidates = ajv.compile(schemaOf("task"));

describe("task model and exported task schema agree", () => {
  for (const [name, config] of rejected) {
    test(`both reject: ${name}`, () => {
      expect(checkFormat("task", config).ok).toBe(false);
      expect(schemaValidates(config)).toBe(false);
    });
  }
  for (const [name, config] of accepted) {
    test(`both accept: ${name}`, () => {
      expect(checkFormat("task", config).ok).toBe(true);
      expect(schemaValidates(config)).toBe(true);
    });
  }
});

describe("rules arktype cannot export", () => {
  test("at-least-one of task_description: a narrow in the model, an anyOf in the schema", () => {
    const td = (schemaOf("task").$defs as Record<string, { anyOf?: unknown[] }>).TaskDescription;
    expect(td?.anyOf).toHaveLength(3);
    const result = checkFormat("task", { ...good, task_description: {} });
    expect(result.ok ? [] : result.problems).toEqual([
      { loc: "task_description", msg: "Value error, at least one of issue, crash_report and bug_description must be set" },
    ]);
  });

  test("strip before pattern: the model strips, the schema (like the reference's) checks the raw text", () => {
    const padded = { ...good, source: "  /src/demo  " };
    const result = checkFormat<{ source: string }>("task", padded);
    expect(result.ok && result.value.source).toBe("/src/demo");
    expect(schemaValidates(padded)).toBe(false);
  });
});

describe("every exported schema", () => {
  test("compiles under ajv strict mode and carries only standard keywords", () => {
    for (const { name } of EXPORTED_SCHEMAS) {
      const schema = schemaOf(name);
      expect(() => new Ajv2020({ strict: true }).compile(schema)).not.toThrow();
      expect(JSON.stringify(schema)).not.toMatch(/"(expected|message|meta)"/);
    }
  });

  test("the manifest schema's TaskMetadata is the task schema's top level", () => {
    const task = schemaOf("task");
    const manifest = schemaOf("manifest");
    const { $schema: _, $defs: __, ...taskTop } = task;
    expect((manifest.$defs as Record<string, unknown>).TaskMetadata).toEqual(taskTop);
  });
});
