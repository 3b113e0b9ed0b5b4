/**
 * One pass over a request body, without recursion (an agent can nest JSON a million levels deep):
 * how deep it is, and the blocks whose tokens its bytes do not bound (images: their pixels; files
 * and documents: their pages, or content the vendor stores).
 */
type Json = Record<string, unknown>;

/** Deeper bodies are refused: no wire nests a request this deep, and re-serialising one would overflow the stack. */
export const MAX_DEPTH = 512;

const IMAGE_TYPES = new Set(["image", "image_url", "input_image"]);
const FILE_TYPES = new Set(["document", "file", "input_file", "container_upload"]);

export interface BodyShape {
  /** deeper than MAX_DEPTH (the walk stopped there) */
  tooDeep: boolean;
  images: number;
  files: number;
}

export function bodyShape(body: unknown): BodyShape {
  const shape: BodyShape = { tooDeep: false, images: 0, files: 0 };
  // [node, depth, inside a counted block (whose parts are not counted again: a document's file source)]
  const stack: [unknown, number, boolean][] = [[body, 1, false]];
  while (stack.length > 0) {
    const [node, depth, inside] = stack.pop() as [unknown, number, boolean];
    if (node === null || typeof node !== "object") continue;
    if (depth > MAX_DEPTH) {
      shape.tooDeep = true;
      return shape;
    }
    const values = Array.isArray(node) ? node : Object.values(node as Json);
    let counted = inside;
    const type = Array.isArray(node) ? undefined : (node as Json).type;
    if (!inside && typeof type === "string") {
      const t = type.toLowerCase();
      if (IMAGE_TYPES.has(t)) shape.images++;
      else if (FILE_TYPES.has(t)) shape.files++;
      counted = IMAGE_TYPES.has(t) || FILE_TYPES.has(t);
    }
    for (const v of values) if (v !== null && typeof v === "object") stack.push([v, depth + 1, counted]);
  }
  return shape;
}
