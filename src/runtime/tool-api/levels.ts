/**
 * Difficulty levels (the reference's `SSE_DIFFICULTY`, 0–4, default 2): which checks the agent may
 * run during its phase. Final grading always runs every check, whatever the level.
 */
import { UserError } from "../../errors.ts";
import { toolMsg } from "./messages.ts";

export type CheckKind = "build" | "poc" | "function_test" | "intent_test";

export interface Level {
  n: number;
  name: string;
  build: boolean;
  poc: boolean;
  function_test: boolean;
  intent_test: boolean;
}

const NAMES = ["FULL_ASSISTANCE", "NO_INTENT_TEST", "NO_FUTURE_TEST", "BUILD_ONLY", "NO_BUILD"] as const;
export const DEFAULT_LEVEL = 2;

export function level(n: number): Level {
  return { n, name: NAMES[n]!, build: n <= 3, function_test: n <= 2, poc: n <= 1, intent_test: n <= 0 };
}

/** Unset → 2; anything but an integer 0–4 stops the run before the agent starts. */
export function parseDifficulty(raw: string | undefined): Level {
  if (raw === undefined) return level(DEFAULT_LEVEL);
  if (!/^\s*[0-4]\s*$/.test(raw)) throw new UserError(toolMsg.badDifficulty(raw));
  return level(Number(raw));
}

export function allowed(l: Level, check: CheckKind): boolean {
  return l[check];
}
