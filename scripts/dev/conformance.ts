/**
 * The checks of scripts/dev/conformance.sh (see shared/conformance/pilot/README.md):
 *  1. `dataset validate` on a copy of the four pilot task folders + dataset.yaml: `4 tasks are valid`.
 *  2. `dataset manifest -o -` there: each entry byte-equal, once rendered, to the pilot manifest's.
 *  3. The lock's keep/drop rules on the full pilot manifest + lock: 54 kept, the stale one dropped.
 *     The pilot's other 51 task folders are not in the conformance data, so this runs the same
 *     mergeLock() the command runs after building the manifest, on the reference's manifest; the
 *     binary's `dataset lock` itself runs on the four-task copy (it keeps those 4 entries).
 *  4. The exported schemas against the reference's: constraints compared, differences printed
 *     (informational; the layout and prose differ by design).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { filesDigest } from "../../src/dataset/files-digest.ts";
import { lockProblems, mergeLock } from "../../src/dataset/lock.ts";
import { parseImagesLock, renderImagesLock } from "../../src/formats/manifest/images-lock.ts";
import { renderJson } from "../../src/formats/compat/json-text.ts";
import { parseManifest, renderManifest } from "../../src/formats/manifest/manifest.ts";
import { EXPORTED_SCHEMAS, loadFormats, schemaOf } from "../../src/formats/schemas.ts";
import { constraintDifferences, sameLayout } from "../../src/formats/schema/schema-constraints.ts";

const pilot = resolve(process.argv[2] ?? "../shared/conformance/pilot");
const bin = resolve(import.meta.dir, "../../dist/ssebench");
const TASKS = ["dns-745-501e858", "gjson-196-bf4efcb", "submariner-operator-b27a04c", "woodpecker-8aa3e5e"];
const STALE = "generic-c-libxml2-xml_commit_0bcd05c";
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

function run(args: string[]) {
  const p = Bun.spawnSync([bin, ...args]);
  return { exitCode: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

const tmp = mkdtempSync(join(tmpdir(), "ssebench-conformance-"));
try {
  const dir = join(tmp, "pilot");
  cpSync(join(pilot, "dataset.yaml"), join(dir, "dataset.yaml"));
  for (const id of TASKS) cpSync(join(pilot, id), join(dir, id), { recursive: true });

  const validate = run(["dataset", "validate", dir]);
  check(validate.exitCode === 0 && validate.stdout === `${dir}: 4 tasks are valid\n`, `validate: '${validate.stdout.trim() || validate.stderr.trim()}'`);

  const refText = readFileSync(join(pilot, "manifest.json"), "utf8");
  const reference = await parseManifest(refText, "pilot/manifest.json");
  check(renderManifest(reference) === refText, "the pilot manifest parses and renders back byte for byte");
  const generated = run(["dataset", "manifest", dir, "-o", "-"]);
  check(generated.exitCode === 0, `manifest exits 0${generated.stderr ? `: ${generated.stderr.trim()}` : ""}`);
  const ours = generated.exitCode === 0 ? JSON.parse(generated.stdout) : { tasks: [] };
  check(ours.dataset === "pilot" && ours.version === "pilot-v1", `manifest names ${ours.dataset} ${ours.version}`);
  for (const id of TASKS) {
    const mine = ours.tasks.find((t: { id: string }) => t.id === id);
    const theirs = JSON.parse(refText).tasks.find((t: { id: string }) => t.id === id);
    check(mine !== undefined && renderJson(mine) === renderJson(theirs), `manifest entry ${id} is byte-equal once rendered`);
  }

  const lockText = readFileSync(join(pilot, "images.lock.json"), "utf8");
  const lock = await parseImagesLock(lockText, "pilot/images.lock.json");
  check(renderImagesLock(lock) === lockText, "the pilot lock parses and renders back byte for byte");
  const matching = reference.tasks.filter((t) => lock.images[t.id]?.files_sha256 === filesDigest(t.files ?? {}));
  check(matching.length === 54, `files_sha256 matches for ${matching.length} of ${reference.tasks.length} pilot tasks`);
  const merged = mergeLock(reference, lock, [], "pilot");
  check(Object.keys(merged.lock.images).length === 54, `lock keeps ${Object.keys(merged.lock.images).length} entries`);
  check(merged.dropped.join() === STALE, `lock drops ${merged.dropped.join(", ") || "nothing"}`);
  const expected = { ...lock, images: Object.fromEntries(Object.entries(lock.images).filter(([id]) => id !== STALE)) };
  check(renderImagesLock(merged.lock) === renderImagesLock(expected), "the kept entries are the pilot's, unchanged and in order");
  check(lockProblems("pilot/images.lock.json", lock, reference).length === 0, "lock --check accepts the lagging pilot lock");

  cpSync(join(pilot, "images.lock.json"), join(dir, "images.lock.json"));
  const out = join(tmp, "lock.json");
  const locked = run(["dataset", "lock", dir, "-o", out]);
  check(locked.stdout === `wrote ${out} with 4 images\n`, `binary lock on the four tasks: '${locked.stdout.trim() || locked.stderr.trim()}'`);

  // The reference exports the four task-dataset schemas; ours add others (models), not compared.
  const referenceSchemas = EXPORTED_SCHEMAS.filter((s) => existsSync(join(pilot, "schema", s.file)));
  check(referenceSchemas.length === 4, `${referenceSchemas.length} of our schemas have a reference counterpart`);
  await loadFormats(...referenceSchemas.map((s) => s.name));
  for (const { name, file } of referenceSchemas) {
    const theirs = JSON.parse(readFileSync(join(pilot, "schema", file), "utf8"));
    const differences = constraintDifferences(schemaOf(name), theirs);
    const layout = sameLayout(schemaOf(name), theirs) ? "same layout" : "other layout";
    console.log(`info ${file}: ${differences.length === 0 ? "same constraints" : `${differences.length} differences`}, ${layout} (descriptions aside)`);
    for (const d of differences) console.log(`       ${d}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`conformance: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("conformance: all checks passed");
