/**
 * The two exported documents: the item dataset (`kind: Dataset`) and the run-input envelope.
 * Built from the fragments in fragments.ts; each is standalone (its own `definitions`).
 */
import { definitions, expectations, inputs, type Schema } from "./fragments.ts";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const untyped = { deprecated: true };

export const runInputSchema: Schema = {
  $schema: DRAFT_07,
  $id: "urn:mas-lab:run-input:v1",
  title: "Run input envelope",
  type: "object",
  additionalProperties: false,
  properties: { inputs, expectations },
  definitions,
};

export const itemDatasetSchema: Schema = {
  $schema: DRAFT_07,
  $id: "mas-lab/dataset/v1",
  title: "Item dataset (apiVersion lab/v1, kind Dataset)",
  type: "object",
  required: ["apiVersion", "kind", "metadata", "spec"],
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string", const: "lab/v1" },
    kind: { type: "string", const: "Dataset" },
    metadata: {
      type: "object",
      required: ["name"],
      additionalProperties: false,
      properties: {
        name: { type: "string", minLength: 1 },
        display_name: { type: "string" },
        version: { type: "string", default: "1.0" },
        description: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
      },
    },
    spec: {
      type: "object",
      additionalProperties: false,
      anyOf: [{ required: ["items"] }, { required: ["path"] }, { required: ["source"] }],
      properties: {
        app: {
          oneOf: [
            { type: "string", minLength: 1 },
            {
              type: "object",
              required: ["name"],
              additionalProperties: false,
              properties: { name: { type: "string", minLength: 1 }, library: { type: "string" }, version: { type: "string" } },
            },
          ],
        },
        items: { type: "array", minItems: 1, items: { $ref: "#/definitions/item" } },
        path: { type: "string" },
        source: {
          type: "object",
          additionalProperties: false,
          required: ["kind"],
          properties: {
            kind: { enum: ["huggingface", "jsonl", "csv", "glob", "pickle"] },
            id: { type: "string" },
            split: { type: "string" },
            path: { type: "string" },
            map: { type: "object", additionalProperties: true },
            config: { type: "string" },
            name: { type: "string" },
            limit: { type: "integer", minimum: 1 },
          },
        },
        format: { type: "string", enum: ["yaml", "jsonl", "csv"], default: "yaml" },
        schemas: {
          type: "object",
          propertyNames: { pattern: "^(expectations\\.details|inputs\\.tool_fixtures\\.by_tool\\.[^.]+)(\\.[^.]+)*$" },
          additionalProperties: { anyOf: [{ type: "string" }, { type: "object" }] },
        },
        groups: {
          type: "array",
          items: {
            type: "object",
            required: ["id"],
            additionalProperties: false,
            properties: { id: { type: "string" }, description: { type: "string" }, count: { type: "integer" } },
          },
        },
      },
    },
  },
  definitions: {
    ...definitions,
    inputs,
    expectations,
    item: {
      type: "object",
      required: ["id"],
      additionalProperties: true,
      properties: {
        id: { oneOf: [{ type: "string" }, { type: "integer" }] },
        inputs: { $ref: "#/definitions/inputs" },
        expectations: { $ref: "#/definitions/expectations" },
        ...Object.fromEntries(
          ["prompt", "query", "question", "text", "input", "user", "turns", "expected_answer", "ground_truth", "correct_action"].map(
            (k) => [k, untyped],
          ),
        ),
        category: { type: "string" },
        group: { type: "string" },
        type: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        metadata: { type: "object", additionalProperties: true },
      },
    },
  },
};

/** The files `dataset schema` writes for item datasets. */
export const ITEM_SCHEMA_FILES = [
  { file: "item-dataset.schema.json", schema: itemDatasetSchema },
  { file: "run-input.schema.json", schema: runInputSchema },
] as const;
