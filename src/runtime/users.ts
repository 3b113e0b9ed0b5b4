/** Looks users up in /etc/passwd (no NSS: the container and the test host use local files). */
import { readFileSync } from "node:fs";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

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
