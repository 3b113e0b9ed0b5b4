/**
 * JSON text as the reference writes its files: Python's `json.dumps(indent=2, ensure_ascii=False)`
 * plus a newline, which is byte-identical to JSON.stringify with a 2-space indent when keys are
 * inserted in the wanted order (no floats occur in these formats).
 */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
