/**
 * Flag definitions shared by several commands, so each flag is spelt, described and defaulted once.
 */
import type { ArgDef } from "citty";

export const jsonArg = {
  json: { type: "boolean", description: "Print JSON for scripts instead of a table" },
} as const satisfies Record<string, ArgDef>;

export const catalogArg = {
  catalog: {
    type: "string",
    description:
      "Manifest to read: a built-in dataset (demo, debian), a file, a dataset folder or an http(s) URL (default: $SSEBENCH_CATALOG, else the built-in demo)",
    valueHint: "LOC",
  },
} as const satisfies Record<string, ArgDef>;

export const datasetDirArg = {
  dir: {
    type: "positional",
    required: false,
    description: "Dataset folder (default: datasets/demo of this checkout)",
    valueHint: "DIR",
  },
} as const satisfies Record<string, ArgDef>;

export const outputFileArg = {
  output: { type: "string", alias: "o", description: "Write to FILE instead ('-' for stdout)", valueHint: "FILE" },
} as const satisfies Record<string, ArgDef>;

export const checkArg = {
  check: { type: "boolean", description: "Write nothing; exit 1 if the file is out of date" },
} as const satisfies Record<string, ArgDef>;

/** `images` and `images prune`: which of ssebench's images. */
export const labelArg = {
  label: { type: "string", description: "Only images with this label (KEY=VALUE)", valueHint: "KEY=VALUE" },
} as const satisfies Record<string, ArgDef>;
