/**
 * One raw item (a mapping from YAML, a sidecar or a mapped source row) → the normalised envelope
 * item `{id, inputs, [expectations], ...metadata}` the reference's `DatasetItem.to_dict()` gives.
 */
import type { Warnings } from "./deprecations.ts";
import { isRoleList, textSlot, toMessages } from "./dialogue.ts";
import { msg } from "./messages.ts";
import { keepOrder, orderedKeys } from "../formats/compat/key-order.ts";
import { isMapping, pyStr, truthy } from "./python.ts";
import { fail, type RefResolver, type Where } from "./refs.ts";
import { checkpoint, expectations, memorySeeds, toolFixtures } from "./slots.ts";
import type { PathSeg } from "./yaml.ts";

export type EnvelopeItem = { id: string; inputs: Record<string, unknown>; expectations?: Record<string, unknown> } & Record<
  string,
  unknown
>;

export interface ItemContext {
  refs: RefResolver;
  warnings: Warnings;
  /** The dataset path as given: the `where` of deprecation warnings. */
  datasetPath: string;
}

/** `file:line:col` of a path inside the raw item. */
export type ItemLocator = (path: readonly PathSeg[], key?: boolean) => string;

const reserved = new Set(["id", "inputs", "expectations"]);
const promptKeys = ["prompt", "query", "question", "text", "input"];
const legacyKeys = ["turns", "memory_seeds", "session_id", "expected_answer", "ground_truth"];
const inputKeys = new Set(["user", "hitl", "memory_seeds", "tool_fixtures", "checkpoint", "session_id"]);

const present = (v: unknown) => v !== null && v !== undefined;

export function itemId(raw: Record<string, unknown>): string {
  return raw.id === undefined || raw.id === null || raw.id === "" ? "item" : pyStr(raw.id);
}

/** The reference's legacy conversion (§5.2), for an item without an `inputs.user` envelope. */
function fromLegacy(raw: Record<string, unknown>): { inputs: Record<string, unknown>; expectations: unknown } {
  const promptKey = promptKeys.find((k) => present(raw[k]));
  const topUser = typeof raw.user === "string" || Array.isArray(raw.user) ? raw.user : undefined;
  const prompt = promptKey ? raw[promptKey] : (topUser ?? "");
  const inputs: Record<string, unknown> = { ...(isMapping(raw.inputs) ? raw.inputs : {}), user: prompt };
  if (Array.isArray(raw.turns)) {
    const extras: string[] = [];
    const hitl: string[] = [];
    for (const turn of raw.turns) {
      if (!isMapping(turn)) continue;
      const role = turn.role ?? "user";
      const content = pyStr(turn.content ?? "");
      if (role === "hitl") hitl.push(content);
      else if (role === "user" && content) extras.push(content);
    }
    if (extras.length > 0) inputs.user = [pyStr(prompt), ...extras];
    if (hitl.length > 0) inputs.hitl = hitl;
  }
  if (present(raw.memory_seeds)) inputs.memory_seeds = raw.memory_seeds;
  if (truthy(raw.session_id)) inputs.session_id = raw.session_id;
  const groundTruth = truthy(raw.ground_truth) ? raw.ground_truth : raw.expected_answer;
  let exp = raw.expectations;
  if (present(groundTruth)) exp = { ...(isMapping(exp) ? exp : {}), ground_truth: groundTruth };
  return { inputs, expectations: exp };
}

function isLegacy(raw: Record<string, unknown>, envelope: boolean): boolean {
  if (promptKeys.some((k) => present(raw[k]))) return true;
  if (envelope) return false;
  return typeof raw.user === "string" || Array.isArray(raw.user) || legacyKeys.some((k) => present(raw[k]));
}

export function loadItem(raw: Record<string, unknown>, at: ItemLocator, ctx: ItemContext): EnvelopeItem {
  const id = itemId(raw);
  const whereAt =
    (...path: PathSeg[]): Where =>
    () =>
      `${at(path)}: item ${id}`;
  const whereKey =
    (...path: PathSeg[]): Where =>
    () =>
      `${at(path, true)}: item ${id}`;
  if (present(raw.inputs) && !isMapping(raw.inputs)) fail(whereAt("inputs"), msg.inputsNotMapping());
  const envelope = isMapping(raw.inputs) && present(raw.inputs.user);
  if (isLegacy(raw, envelope)) ctx.warnings.deprecated("dataset.legacy_item", ctx.datasetPath);
  const shaped = envelope
    ? { inputs: raw.inputs as Record<string, unknown>, expectations: raw.expectations }
    : fromLegacy(raw);
  const inputs = shaped.inputs;
  for (const key of Object.keys(inputs)) {
    if (!inputKeys.has(key)) fail(whereKey("inputs", key), msg.unknownKey(`inputs.${key}`));
  }
  const { refs } = ctx;
  if (isRoleList(inputs.user)) ctx.warnings.deprecated("dataset.role_list_user", ctx.datasetPath);
  const dialogue = toMessages(textSlot(inputs.user, refs, whereAt("inputs", "user")), "user", whereAt("inputs", "user"));
  toMessages(textSlot(inputs.hitl, refs, whereAt("inputs", "hitl")), "hitl", whereAt("inputs", "hitl"), dialogue);
  const users = dialogue.filter((m) => m.role === "user").map((m) => m.content);
  const hitl = dialogue.filter((m) => m.role === "hitl").map((m) => m.content);

  const out: Record<string, unknown> = { user: users.length === 0 ? "" : users.length === 1 ? users[0] : users };
  if (hitl.length > 0) out.hitl = hitl;
  const seeds = memorySeeds(inputs.memory_seeds, refs, whereAt("inputs", "memory_seeds"));
  if (seeds !== undefined) out.memory_seeds = seeds;
  const fixtures = toolFixtures(inputs.tool_fixtures, refs, whereAt("inputs", "tool_fixtures"));
  if (fixtures !== undefined) out.tool_fixtures = fixtures;
  if (truthy(inputs.session_id)) out.session_id = inputs.session_id;
  const cp = checkpoint(inputs.checkpoint, refs, whereAt("inputs", "checkpoint"));
  if (present(cp.load) || truthy(cp.save)) out.checkpoint = cp;
  const exp = expectations(shaped.expectations, refs, whereAt("expectations"), ctx.warnings, ctx.datasetPath);

  const item: EnvelopeItem = { id, inputs: out };
  if (Object.keys(exp).length > 0) item.expectations = exp;
  const metadataKeys = orderedKeys(raw).filter((key) => !reserved.has(key));
  for (const key of metadataKeys) item[key] = raw[key];
  return keepOrder(item, [...Object.keys(item).filter((k) => !metadataKeys.includes(k)), ...metadataKeys]);
}
