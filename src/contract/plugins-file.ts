/**
 * Loads plugins.yaml and checks it against schema.json beside it (docs/container-contract.md §6):
 * the entrypoint at start and `ssebench run` before it builds the tool layer, so both read the
 * file the same way.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { checkSchemaSubset, formatPath, type PluginEntry, validateAgainst } from "../formats/run/plugins.ts";
import { contractMsg as msg } from "./messages.ts";
import { cachedParse, type YamlModule } from "./parse-cache.ts";

const fail = (problem: string) => new UserError(msg.plugins(problem));

export async function loadPlugins(dir: string, cacheDir: string): Promise<PluginEntry[]> {
  const yamlPath = join(dir, "plugins.yaml");
  if (!existsSync(yamlPath)) return [];
  let schemaText: string;
  let schema: unknown;
  try {
    schemaText = readFileSync(join(dir, "schema.json"), "utf8");
    schema = JSON.parse(schemaText);
    checkSchemaSubset(schema);
  } catch (e) {
    throw fail(`schema.json: ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = readFileSync(yamlPath, "utf8");
  return cachedParse(cacheDir, "plugins", text, schemaText, (yaml) => checkPlugins(text, schema, yaml));
}

function checkPlugins(text: string, schema: unknown, yaml: YamlModule): PluginEntry[] {
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw fail(`plugins.yaml:${e.linePos?.[0].line ?? 1}: ${e.message.split("\n")[0]}`);
  }
  const value = doc.toJS();
  const problems = validateAgainst(schema as Parameters<typeof validateAgainst>[0], value);
  if (problems.length > 0) {
    const p = problems[0]!;
    let node = doc.getIn(p.path, true) as { range?: [number, number, number] } | undefined;
    for (let n = p.path.length; !node?.range && n > 0; n--) node = doc.getIn(p.path.slice(0, n - 1), true) as typeof node;
    const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
    const where = formatPath(p.path);
    throw fail(`plugins.yaml:${line}: ${where ? `${where} ` : ""}${p.problem} (schema.json)`);
  }
  const entries = value as PluginEntry[];
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.name)) throw fail(`plugins.yaml: plugin "${e.name}" is declared twice`);
    seen.add(e.name);
  }
  return entries;
}
