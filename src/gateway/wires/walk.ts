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

/**
 * A Gemini part's media, by its key: inline data is an image when its MIME type says so (else
 * audio, video or a PDF, whose tokens go by length or pages, not bytes); file data is stored.
 */
function geminiMedia(node: Record<string, unknown>): "image" | "file" | undefined {
  const inline = node.inlineData ?? node.inline_data;
  if (inline !== null && typeof inline === "object") {
    const mime = (inline as Record<string, unknown>).mimeType ?? (inline as Record<string, unknown>).mime_type;
    return typeof mime === "string" && mime.toLowerCase().startsWith("image/") ? "image" : "file";
  }
  const file = node.fileData ?? node.file_data;
  return file !== null && typeof file === "object" ? "file" : undefined;
}

export interface BodyShape {
  /** deeper than MAX_DEPTH (the walk stopped there) */
  tooDeep: boolean;
  images: number;
  files: number;
}

/** `gemini`: the body is the gemini wire's, whose parts name their media by key, not by type. */
export function bodyShape(body: unknown, gemini = false): BodyShape {
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
    if (!inside && gemini && !Array.isArray(node)) {
      const media = geminiMedia(node as Json);
      if (media === "image") shape.images++;
      else if (media === "file") shape.files++;
      counted = media !== undefined;
    } else if (!inside && typeof type === "string") {
      const t = type.toLowerCase();
      if (IMAGE_TYPES.has(t)) shape.images++;
      else if (FILE_TYPES.has(t)) shape.files++;
      counted = IMAGE_TYPES.has(t) || FILE_TYPES.has(t);
    }
    for (const v of values) if (v !== null && typeof v === "object") stack.push([v, depth + 1, counted]);
  }
  return shape;
}
