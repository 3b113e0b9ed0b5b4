/**
 * What arktype does not keep about a model: its name (pydantic's `$defs` key and the "instance of"
 * in messages), its title and its declared field order (arktype sorts keys; the reference reports
 * errors and dumps metadata in declaration order).
 */
export interface ModelInfo {
  name: string;
  title: string;
  description: string;
  fields: readonly string[];
}

/** A model is recognised in a generated schema by its exact set of property names. */
export function modelForKeys(models: readonly ModelInfo[], keys: readonly string[]): ModelInfo | undefined {
  const wanted = [...keys].sort().join("\0");
  return models.find((m) => [...m.fields].sort().join("\0") === wanted);
}
