/** The names of the dataset formats (no arktype here: light modules import this). */
export type FormatName = "task" | "dataset" | "manifest" | "images-lock" | "publication-record" | "model" | "model-script" | "upstream-sources" | "verified";

/** The formats check.ts checks with validators compiled at build, in the generated module's order. */
export const COMPILED_FORMATS = ["task", "dataset", "manifest", "images-lock", "publication-record", "model", "model-script", "upstream-sources"] as const satisfies readonly FormatName[];

export type CompiledFormat = (typeof COMPILED_FORMATS)[number];
