/**
 * Looks users up in /etc/passwd (no NSS: the container and the test host use local files), and
 * renumbers `model` and `sse-runner` to the run's own uids (docs/container-contract.md §4): without
 * a user namespace the tool layer's uids would be the same kernel uids in every concurrent run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { run, writeAtomic } from "../fs-util.ts";
import { msg } from "../messages.ts";

export interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export function lookupUser(name: string, passwd = "/etc/passwd"): Account {
  for (const line of readFileSync(passwd, "utf8").split("\n")) {
    const f = line.split(":");
    if (f[0] === name && f.length >= 7) {
      return { name, uid: Number(f[2]), gid: Number(f[3]), home: f[5] || "/nonexistent" };
    }
  }
  throw new UserError(msg.noUser(name));
}

export const root: Account = { name: "root", uid: 0, gid: 0, home: "/root" };

export interface Renumbered {
  before: Account;
  after: Account;
}

/**
 * Gives each named user the uid (and its primary group the same gid) asked for, rewriting
 * `<etc>/passwd` and `<etc>/group` in place. A number another entry already holds is refused.
 * Returns the users that changed.
 */
export function renumberUsers(etc: string, wanted: { name: string; uid: number }[]): Renumbered[] {
  const passwdPath = join(etc, "passwd");
  const groupPath = join(etc, "group");
  const passwd = readFileSync(passwdPath, "utf8").split("\n");
  const group = readFileSync(groupPath, "utf8").split("\n");
  const changed: Renumbered[] = [];
  for (const { name, uid } of wanted) {
    const before = lookupUser(name, passwdPath);
    if (before.uid === uid && before.gid === uid) continue;
    const users = passwd.map((l) => l.split(":"));
    const taken = users.find((f) => f.length >= 7 && f[0] !== name && Number(f[2]) === uid);
    if (taken) throw new UserError(msg.uidTaken(name, uid, `user "${taken[0]}"`));
    const groups = group.map((l) => l.split(":"));
    const gTaken = groups.find((f) => f.length >= 4 && Number(f[2]) === uid && Number(f[2]) !== before.gid);
    if (gTaken) throw new UserError(msg.uidTaken(name, uid, `group "${gTaken[0]}"`));
    for (const [i, f] of users.entries()) {
      if (f[0] !== name || f.length < 7) continue;
      f[2] = String(uid);
      f[3] = String(uid);
      passwd[i] = f.join(":");
    }
    // The user's primary group follows (by number: Debian names it like the user, but need not).
    for (const [i, f] of groups.entries()) {
      if (f.length < 4 || Number(f[2]) !== before.gid || before.gid === 0) continue;
      f[2] = String(uid);
      group[i] = f.join(":");
    }
    changed.push({ before, after: { ...before, uid, gid: uid } });
  }
  if (changed.length === 0) return changed;
  writeAtomic(groupPath, group.join("\n"));
  writeAtomic(passwdPath, passwd.join("\n"));
  return changed;
}

/** Hands what the renumbered user `name` owned below `dirs` (its tree, its home) to its new uid. */
export function reown(changed: Renumbered[], name: string, dirs: string[]): void {
  const c = changed.find((r) => r.before.name === name);
  const present = dirs.filter((d) => d !== "/nonexistent" && existsSync(d));
  if (!c || present.length === 0) return;
  const r = run(["chown", "-R", "-h", `--from=${c.before.uid}`, `${c.after.uid}:${c.after.gid}`, ...present]);
  if (!r.ok) throw new UserError(msg.reownFailed(name, r.stderr.trim()));
}

