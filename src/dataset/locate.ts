/**
 * Where the dataset commands look when DIR is not given: the checkout that holds
 * `datasets/demo/dataset.yaml`, found by walking up from the working directory.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { UserError } from "../errors.ts";
import { reportMessages as m } from "./messages.ts";

export const DEMO_DATASET = "datasets/demo";

/** The checkout root above `cwd`, or undefined. */
export function findCheckout(cwd = process.cwd()): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, DEMO_DATASET, "dataset.yaml"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function requireCheckout(cwd: string): string {
  const root = findCheckout(cwd);
  if (!root) throw new UserError(m.noCheckout(cwd));
  return root;
}

/** As the user would write it: relative to cwd when below it, else absolute. */
function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/** DIR as given, or the checkout's demo dataset (shown relative to cwd). */
export function datasetDir(given: string | undefined, cwd = process.cwd()): string {
  if (given !== undefined && given !== "") return given;
  return display(join(requireCheckout(cwd), DEMO_DATASET), cwd);
}

/** DIR as given, or the checkout's `datasets/<sub>` (for the schema folder). */
export function checkoutDir(given: string | undefined, sub: string, cwd = process.cwd()): string {
  if (given !== undefined && given !== "") return given;
  return display(join(requireCheckout(cwd), "datasets", sub), cwd);
}
