/**
 * The `user` and `hitl` text slots: any value becomes a list of {role, content} messages (§5.4).
 * A string is always literal text; only a ref object loads a file.
 */
import { msg } from "./messages.ts";
import { isMapping, pyKeyList, pyStr, pyTypeName } from "./python.ts";
import { fail, isRefObject, type RefResolver, type Where } from "./refs.ts";

export interface Message {
  role: string;
  content: string;
}

const nestedLists = ["messages", "turns", "user", "hitl", "items"];

export function toMessages(value: unknown, role: string, where: Where, out: Message[] = []): Message[] {
  if (value === null || value === undefined) return out;
  if (typeof value === "string") {
    out.push({ role, content: value });
  } else if (Array.isArray(value)) {
    for (const entry of value) toMessages(entry, role, where, out);
  } else if (isMapping(value)) {
    if ("role" in value && "content" in value) {
      out.push({ role: pyStr(value.role), content: pyStr(value.content) });
      return out;
    }
    const key = nestedLists.find((k) => Array.isArray(value[k]));
    if (key) return toMessages(value[key], role, where, out);
    if ("content" in value) out.push({ role, content: pyStr(value.content) });
    else fail(where, msg.cannotCoerceMapping(pyKeyList(Object.keys(value))));
  } else {
    fail(where, msg.messagesType(pyTypeName(value)));
  }
  return out;
}

/** A text slot: a ref object loads its file; anything else is used as given. */
export function textSlot(value: unknown, refs: RefResolver, where: Where): unknown {
  return isRefObject(value) ? refs.loadRefObject(value, where) : value;
}

export function isRoleList(user: unknown): boolean {
  const roleMessage = (v: unknown) => isMapping(v) && "role" in v && "content" in v;
  return roleMessage(user) || (Array.isArray(user) && user.some(roleMessage));
}
