/**
 * Reading models/<name>.yaml (and a scripted model's script): YAML with line numbers, the arktype
 * model, the provider rules and the key variable, each problem one line naming the file and line.
 * Loads arktype: import lazily.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { UserError, describeCause } from "../errors.ts";
import { checkDocument } from "../formats/check.ts";
import type { FormatName } from "../formats/format-names.ts";
import { formatProblem } from "../formats/schema/model-errors.ts";
import type { ModelScript } from "../formats/models/model-script.ts";
import { type ModelConfig, providerProblems } from "../formats/models/model-types.ts";
import { msg } from "./messages.ts";

export interface LoadedModel {
  config: ModelConfig;
  file: string;
  /** the upstream's key (from key_env); undefined for a scripted model */
  key: string | undefined;
  /** the parsed script of a scripted model */
  script: ModelScript | undefined;
}

/** `models/x.yaml` relative to the working directory when it is below it, else absolute. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
}

/** Parses a YAML file and checks it against a format; every failure is one UserError line. */
async function readChecked<T>(file: string, format: FormatName): Promise<T> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new UserError(msg.modelUnreadable(shown(file), describeCause(cause)));
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) throw new UserError(msg.modelFile(shown(file), syntax.linePos?.[0].line ?? 1, syntax.message.split("\n")[0] ?? "invalid YAML"));
  // A valid file is checked by the validator compiled at build; only a bad one loads arktype.
  const checked = checkDocument<T>(format, doc.toJS());
  if (checked.ok) return withoutNulls(checked.value);
  const first = checked.problems[0] as { loc: string; msg: string };
  const path = first.loc === "" ? [] : first.loc.replaceAll(/\[(\d+)\]/g, ".$1").split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  let node = doc.getIn(path, true) as { range?: [number, number] } | undefined;
  // A missing key has no node: point at its parent.
  for (let p = path.slice(0, -1); !node?.range && p.length >= 0; p = p.slice(0, -1)) {
    node = (p.length === 0 ? doc.contents : doc.getIn(p, true)) as typeof node;
    if (p.length === 0) break;
  }
  const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  throw new UserError(msg.modelFile(shown(file), line, formatProblem(first)));
}

/** The compiled check fills absent optional fields with null (the schema's default): leave them absent. */
function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)])) as T;
}

export function listModelNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => f.replace(/\.ya?ml$/, ""))
    .sort();
}

export function modelFile(dir: string, name: string): string | undefined {
  return [join(dir, `${name}.yaml`), join(dir, `${name}.yml`)].find((f) => existsSync(f));
}

/** Reads and checks one model file's configuration (not its key nor its script): each problem one line naming the file. */
export async function readModelConfig(file: string): Promise<ModelConfig> {
  const config = await readChecked<ModelConfig>(file, "model");
  const stem = basename(file).replace(/\.ya?ml$/, "");
  if (config.name !== stem) throw new UserError(msg.modelNameMismatch(shown(file), config.name, stem));
  const problem = providerProblems(config)[0];
  if (problem) throw new UserError(msg.providerRule(shown(file), problem));
  return config;
}

/** Reads and checks one model file; `env` gives the upstream key (its absence is an error). */
export async function loadModelFile(file: string, env: Record<string, string | undefined>): Promise<LoadedModel> {
  const config = await readModelConfig(file);
  if (config.provider === "scripted") {
    const scriptFile = resolve(dirname(file), config.script as string);
    if (!existsSync(scriptFile)) throw new UserError(msg.scriptMissing(shown(file), config.script as string));
    return { config, file, key: undefined, script: await readChecked<ModelScript>(scriptFile, "model-script") };
  }
  const key = env[config.key_env as string];
  if (!key) throw new UserError(msg.keyMissing(shown(file), config.name, config.key_env as string));
  return { config, file, key, script: undefined };
}
