import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every file and folder below `dir` by relative path (folders end in `/`), with each regular
 * file's text; a link or anything else is named by its kind and never opened (a FIFO would block).
 */
export function fileTree(dir: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    if (st.isDirectory()) {
      out[`${path}/`] = "";
      Object.assign(out, fileTree(dir, path));
    } else if (st.isFile()) out[path] = readFileSync(join(dir, path), "utf8");
    else out[path] = st.isSymbolicLink() ? "(link)" : "(other)";
  }
  return out;
}
