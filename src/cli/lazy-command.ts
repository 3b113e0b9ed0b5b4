/** The default export of a lazily imported command module, typed as a citty command. */
import type { ArgsDef, CommandDef } from "citty";

export const loadCommand = (p: Promise<{ default: unknown }>): Promise<CommandDef<ArgsDef>> =>
  p.then((m) => m.default as CommandDef<ArgsDef>);
