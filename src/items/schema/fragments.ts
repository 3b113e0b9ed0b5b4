/**
 * The JSON Schema (draft-07) models of item datasets, restating the reference's
 * `dataset.schema.yaml`, `run-input.schema.yaml` and fragments constraint for constraint. They are
 * plain schema objects rather than arktype models on purpose: the reference's `oneOf` semantics
 * (an integer ground_truth matches both `integer` and `number` and is rejected; `{ref}` as
 * checkpoint.load matches two branches) are part of the contract and arktype unions cannot express
 * them. The same objects drive `dataset validate` (ajv) and `dataset schema` (export).
 */
export type Schema = { [key: string]: unknown };

const nonEmpty = { type: "string", minLength: 1 } as const;
const refTo = (name: string) => ({ $ref: `#/definitions/${name}` });

export const refFragment: Schema = {
  type: "object",
  additionalProperties: false,
  properties: { ref: nonEmpty, id: nonEmpty },
  anyOf: [{ required: ["ref"] }, { required: ["id"] }],
};

export const memorySeedEntry: Schema = {
  type: "object",
  required: ["content"],
  additionalProperties: true,
  properties: {
    source: { type: "string" },
    key: { type: "string" },
    content: { type: "string" },
    target_agent: { type: "string" },
    metadata: { type: "object" },
  },
};

export const toolFixtureMapping: Schema = {
  oneOf: [
    refTo("ref"),
    nonEmpty,
    {
      type: "object",
      required: ["by_tool"],
      additionalProperties: false,
      properties: {
        by_tool: {
          type: "object",
          minProperties: 1,
          additionalProperties: { anyOf: [refTo("ref"), nonEmpty, { type: "object" }, { type: "array" }] },
        },
      },
    },
    {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["ref"],
        properties: { tool: { type: "string" }, tools: { type: "array", items: { type: "string" } }, ref: nonEmpty },
      },
    },
  ],
};

export const inputs: Schema = {
  type: "object",
  additionalProperties: false,
  required: ["user"],
  properties: {
    user: {
      oneOf: [
        nonEmpty,
        { type: "array", minItems: 1, items: nonEmpty },
        refTo("ref"),
        {
          type: "array",
          minItems: 1,
          deprecated: true,
          items: {
            type: "object",
            required: ["role", "content"],
            properties: { role: { type: "string" }, content: { type: "string" } },
          },
        },
      ],
    },
    hitl: { oneOf: [refTo("ref"), nonEmpty, { type: "array", items: nonEmpty }], default: [] },
    memory_seeds: {
      oneOf: [
        refTo("ref"),
        nonEmpty,
        { type: "array", items: refTo("memory-seed-entry") },
        {
          type: "object",
          required: ["kind", "entries"],
          additionalProperties: true,
          properties: {
            kind: { const: "MemorySeed" },
            entries: { type: "array", minItems: 1, items: refTo("memory-seed-entry") },
            apiVersion: { type: "string" },
            metadata: { type: "object" },
          },
        },
      ],
    },
    tool_fixtures: refTo("tool-fixture-mapping"),
    checkpoint: {
      type: "object",
      additionalProperties: false,
      properties: {
        load: { oneOf: [{ type: "null" }, refTo("ref"), { type: "object", additionalProperties: true }] },
        save: { oneOf: [{ type: "boolean" }, nonEmpty] },
      },
      default: {},
    },
    session_id: nonEmpty,
  },
};

export const expectations: Schema = {
  oneOf: [
    refTo("ref"),
    {
      type: "object",
      additionalProperties: false,
      properties: {
        ground_truth: {
          oneOf: [
            { type: "string" },
            { type: "integer" },
            { type: "number" },
            { type: "boolean" },
            { type: "object" },
            { type: "array" },
          ],
        },
        metrics: { type: "array", items: { type: "string" } },
        details: { type: "object", additionalProperties: true },
        correct_action: { deprecated: true, description: "the loader folds it under details" },
        governance: { deprecated: true, description: "the loader folds it under details" },
      },
    },
  ],
};

/** Shared definitions every exported document carries, so each file stands alone. */
export const definitions: Schema = {
  ref: refFragment,
  "memory-seed-entry": memorySeedEntry,
  "tool-fixture-mapping": toolFixtureMapping,
};
