/**
 * Types of compiled-validators.js, which scripts/build/compile-validators.ts generates at build time
 * (ajv standalone code from the JSON Schemas the arktype models export). Not committed: build first.
 */
import type { CompiledFormat } from "./format-names.ts";

/** True when the document satisfies the format's exported JSON Schema. */
export const validators: Record<CompiledFormat, (data: unknown) => boolean>;
/** The exported JSON Schemas without titles and descriptions, by format. */
export const schemas: Record<CompiledFormat, { [key: string]: unknown }>;
/** Single-pass checkers (scripts/build/shape-checkers.ts): the validator and "no string with edge space" in one walk. */
export const shapeCheckers: Partial<Record<CompiledFormat, ShapeChecker>>;

export interface ShapeChecker {
  (data: unknown): boolean;
  /** How many keys the objects of `data` have, if `data` is the document last accepted (then forgotten). */
  keysWalked(data: unknown): number | undefined;
}
