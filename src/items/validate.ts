/**
 * `ssebench dataset validate FILE.yaml` for item datasets: the JSON Schema first (every violation),
 * then, when the schema passes, a full load — refs, sources (except huggingface, which needs the
 * network), duplicate ids and spec.schemas. Returns the problems; an empty list means valid.
 */
import { openDataset, readYamlFile } from "./dataset.ts";
import { schemaViolations } from "./schema-check.ts";
import { UserError } from "../errors.ts";
import { isMapping } from "./python.ts";

export interface ItemValidation {
  problems: string[];
  items: number;
  /** Why rows were not materialised (huggingface sources). */
  skipped?: string;
}

export async function validateItemDataset(path: string, warn: (line: string) => void): Promise<ItemValidation> {
  const doc = readYamlFile(path);
  const problems = await schemaViolations(doc);
  if (problems.length > 0) return { problems, items: 0 };
  const spec = isMapping(doc.value) && isMapping(doc.value.spec) ? doc.value.spec : {};
  const hub = isMapping(spec.source) && spec.source.kind === "huggingface";
  let items = 0;
  try {
    const dataset = await openDataset(path, { warn });
    if (hub) return { problems: [], items: 0, skipped: "spec.source rows (huggingface) are checked when materialised" };
    for await (const batch of dataset.batches()) items += batch.length;
    return { problems: dataset.problems, items };
  } catch (error) {
    if (error instanceof UserError) return { problems: [error.message], items };
    throw error;
  }
}
