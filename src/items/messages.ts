/**
 * Every text the item-dataset loader prints. Wording follows the reference (shared spec
 * item-datasets.md) where it has one; `where` is always `file:line:col` and, for item-level
 * problems, `item <id>` as well.
 */
import { pyRepr } from "./python.ts";

const q = (s: string) => pyRepr(s);

export const msg = {
  // documents
  notADataset: (kind: unknown) => `kind must be 'Dataset' for an item dataset (got ${pyRepr(kind)})`,
  wrongApiVersion: (v: unknown) => `apiVersion must be 'lab/v1' for kind: Dataset (got ${pyRepr(v)})`,
  unknownKey: (path: string) => `${path} is not a valid property`,
  notAMapping: (path: string) => `${path} must be a mapping`,
  fileUnreadable: (file: string, cause: string) => `${file}: cannot read: ${cause}`,
  // refs
  catalogRef: (id: unknown) => `catalog id refs are not resolved yet: ${pyRepr(id)}`,
  refNotString: () => "ref object needs ref: path",
  refNotFound: (ref: string, looked: string) => `dataset ref ${q(ref)} not found (looked for ${looked})`,
  refEscapes: (ref: string) =>
    `dataset ref ${q(ref)} points outside the dataset's folder; refs must stay inside it (copy the file next to the dataset)`,
  textRefFragment: (ref: string) => `text ref ${q(ref)} does not support #fragments`,
  fragmentNotFound: (frag: string) => `fixture id ${q(frag)} not found`,
  refCycle: (chain: string[]) => `cyclic ref: ${chain.join(" -> ")}`,
  refTooDeep: (ref: string) => `ref ${q(ref)}: more than 16 chained refs`,
  // user / hitl
  cannotCoerceMapping: (keys: string) => `cannot coerce mapping to messages: ${keys}`,
  messagesType: (type: string) => `messages must be a list, mapping, or string, got <class '${type}'>`,
  // seeds, checkpoint, fixtures, expectations
  seedsType: (type: string) => `memory_seeds must be list, MemorySeed document, or ref, got <class '${type}'>`,
  checkpointNotMapping: () => "inputs.checkpoint must be a mapping",
  fixtureListEntry: () => "tool_fixtures list entries must be {tool | tools, ref: path}",
  fixtureShape: (keys: string) =>
    `tool_fixtures: expected a path, {ref: path}, a binding list, or by_tool; got ${keys}. Put inline payloads under by_tool (use "*" for every tool). See docs/manifests/dataset.md.`,
  expectationsNotMapping: () => "expectations must resolve to a mapping",
  detailsNotMapping: () => "expectations.details must be a mapping",
  detailsClash: (keys: string) => `expectations keys ${keys} already exist in details`,
  inputsNotMapping: () => "inputs must be a mapping",
  // sources
  sourceNeedsKind: () => "spec.source needs kind",
  unknownSourceKind: (kind: unknown) => `unknown spec.source.kind ${pyRepr(kind)}`,
  sourcePathRequired: () => "spec.source.path is required",
  globPathRequired: () => "spec.source.path (glob) is required",
  globAbsolute: (p: string) => `spec.source.path (glob) must be a pattern relative to the dataset's folder, not ${p}`,
  sourceNotFound: (p: string) => `spec.source path not found: ${p}`,
  pickleRefused: () =>
    "spec.source.kind 'pickle' is not supported: loading a pickle runs arbitrary Python code from the file; convert it to jsonl (one JSON object per line) and use kind: jsonl",
  hfNeedsId: () => "huggingface source needs id (e.g. TIGER-Lab/MMLU-Pro)",
  hfSplitSlice: (split: string) =>
    `huggingface split ${q(split)}: only absolute slices like 'validation[:8]' or 'validation[10:20]' are supported`,
  hfNoConfig: (id: string, split: string) => `huggingface dataset ${q(id)} has no split ${q(split)}`,
  hfHttp: (url: string, status: string) => `huggingface rows: GET ${url} failed: ${status}`,
  badLimit: (v: unknown) => `spec.source.limit must be a whole number >= 1 (got ${pyRepr(v)})`,
  badJson: (what: string) => `invalid JSON: ${what}`,
  raggedCsv: (got: number, want: number) => `row has ${got} fields but the header has ${want}`,
  csvUnterminated: () => "unterminated quoted field",
  sidecarJson: (p: string) =>
    `Dataset spec.path no longer accepts JSON (${p}); inline spec.items in YAML or use spec.source (jsonl/csv/huggingface)`,
  sidecarNotFound: (p: string) => `spec.path not found: ${p}`,
  sidecarSelf: () => "cyclic ref: spec.path names the dataset file itself",
  // map
  rowNoPrompt: () => "source row has no question/prompt/text/user and no map",
  mappedNoUser: (id: string) => `mapped item ${q(id)} missing inputs.user`,
  templateMissingColumn: (template: string, name: string) => `template ${q(template)}: the row has no column ${q(name)}`,
  templateSyntax: (template: string, what: string) => `template ${q(template)}: ${what}`,
  // items
  duplicateId: (id: string, first: string) => `duplicate item id ${q(id)} (first defined at ${first})`,
  schemasType: () => "spec.schemas must map dotted envelope paths to schemas",
  schemasKey: (key: string) =>
    `spec.schemas: ${q(key)} is not a free-form part; use expectations.details[...] or inputs.tool_fixtures.by_tool.<tool>[...]`,
  schemasValue: (key: string) => `spec.schemas.${key}: expected a JSON Schema mapping, a path, or {ref: path}`,
  schemasInvalid: (key: string, what: string) => `spec.schemas.${key}: not a valid JSON Schema (draft-07): ${what}`,
  // CLI
  overrideNotMapping: () => "a source override must be a mapping of spec.source fields",
} as const;
