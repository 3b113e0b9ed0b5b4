/**
 * Writes src/run/embedded-home.gen.js: every file `ssebench run` needs outside a checkout (the
 * folders of EMBEDDED_PATHS: every agents/* folder, images/, runtime/plugins/, models/, the demo
 * dataset), base64 with its mode, and a digest over them all. scripts/build/build.ts runs it before
 * compiling, so a new agents/<name>/ folder is in the next binary without a list to edit.
 * Usage: bun scripts/build/embed-home.ts [ROOT] [OUTFILE]
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { collectHomeFiles, renderHomeModule } from "../../src/run/embedded-home-files.ts";

const root = resolve(process.argv[2] ?? join(import.meta.dir, "../.."));
const outfile = process.argv[3] ?? join(root, "src", "run", "embedded-home.gen.js");
const files = collectHomeFiles(root);
writeFileSync(outfile, renderHomeModule(files));
console.log(`embedded ${files.length} files (${files.reduce((n, f) => n + f.data.length, 0)} bytes) in ${outfile}`);
