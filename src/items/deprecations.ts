/**
 * Deprecation warnings with the reference's exact wording, each printed once per (code, where).
 */
const docsBase = "https://outshift-open.github.io/mas-lab/";

const codes = {
  "dataset.legacy_item": ["manifests/dataset-migration.md", "use inputs.user + expectations (Run Input Envelope)"],
  "dataset.role_list_user": [
    "manifests/dataset-migration.md",
    "inputs.user must be a string or list of strings, not [{role, content}]",
  ],
  "dataset.bare_list": ["manifests/dataset.md#1-manifest-format", "wrap items in apiVersion/kind: Dataset and spec.items"],
  // Not in the reference (which loads the flat form silently); issue 6 asks for a warning.
  "dataset.flat_form": [
    "manifests/dataset.md#1-manifest-format",
    "add apiVersion: lab/v1 and kind: Dataset, with name/version/description under metadata and items under spec",
  ],
  "dataset.legacy_expectations": [
    "manifests/dataset-migration.md",
    "put app- or tool-specific ground truth under expectations.details",
  ],
} as const;

export type DeprecationCode = keyof typeof codes;

export function docsUrl(docsPath: string): string {
  const [file = "", frag] = docsPath.split("#");
  return `${docsBase}${file.replace(/\.md$/, "")}/${frag ? `#${frag}` : ""}`;
}

export function deprecationMessage(code: DeprecationCode, where: string): string {
  const [docsPath, replacement] = codes[code];
  return `Deprecated: ${code} in ${where}; ${replacement}. See ${docsUrl(docsPath)} (source: docs/${docsPath}). This shape still loads; it will be removed in a future release.`;
}

/** Collects warnings, dropping repeats of the same (code, where). */
export class Warnings {
  private readonly seen = new Set<string>();
  constructor(private readonly sink: (line: string) => void) {}

  deprecated(code: DeprecationCode, where: string): void {
    const key = `${code}\u0000${where}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.sink(deprecationMessage(code, where));
  }
}
