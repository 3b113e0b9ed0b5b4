/**
 * Rules of the task config that arktype cannot export to JSON Schema, written as the schema
 * fragment the reference exports. The model enforces the same rule with a narrow (task/task-config.ts);
 * test/formats/schema-equivalence.test.ts checks that both reject the same configs.
 */
export const AT_LEAST_ONE_ANY_OF = [
  { properties: { issue: { pattern: "\\S", type: "string" } }, required: ["issue"] },
  { properties: { crash_report: { minItems: 1, type: "array" } }, required: ["crash_report"] },
  { properties: { bug_description: { pattern: "\\S", type: "string" } }, required: ["bug_description"] },
];

/** The model validator's text; pydantic prefixes it with `Value error, `. */
export const AT_LEAST_ONE_MESSAGE = "at least one of issue, crash_report and bug_description must be set";
