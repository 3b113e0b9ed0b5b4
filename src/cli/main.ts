/**
 * The CLI's top level: resolves the command, rejects unknown flags, runs it, and turns every
 * UserError into one line on stderr plus its exit code. Nothing else in the product exits the
 * process or prints errors.
 */
import type { ArgsDef, CommandDef } from "citty";
import { Argv } from "../argv.ts";
import { ExitCode, UserError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { rootCommands } from "./commands.ts";
import { endQuietlyOnClosedStdout, write } from "./output.ts";

type AnyCommand = CommandDef<ArgsDef>;
type Lazy<T> = T | (() => T | Promise<T>);

async function resolve<T>(value: Lazy<T> | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : value;
}

export const rootCommand: AnyCommand = {
  meta: {
    name: "ssebench",
    version: VERSION,
    description: "Benchmark AI coding agents on real security vulnerabilities",
  },
  subCommands: rootCommands as AnyCommand["subCommands"],
};

/** Walks the sub-command names at the front of argv: returns the leaf command and its own argv. */
async function resolveLeaf(
  argv: string[],
): Promise<{ cmd: AnyCommand; path: string[]; rest: string[]; parent?: AnyCommand }> {
  let cmd = rootCommand;
  let parent: AnyCommand | undefined;
  const path: string[] = [];
  let rest = argv;
  for (;;) {
    const subs = await resolve(cmd.subCommands);
    const name = rest[0];
    if (!subs || name === undefined || name.startsWith("-")) break;
    const next = await resolve((subs as Record<string, Lazy<AnyCommand>>)[name]);
    if (!next) {
      const known = Object.keys(subs).join(", ");
      throw new UserError(
        `${["ssebench", ...path].join(" ")}: unknown command '${name}' (commands: ${known})`,
        ExitCode.usage,
      );
    }
    parent = cmd;
    cmd = next;
    path.push(name);
    rest = rest.slice(1);
  }
  return { cmd, path, rest, parent };
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The names of a command's flags (with their kebab-case forms and aliases) and those that take a value. */
async function flagNames(cmd: AnyCommand): Promise<{ known: Set<string>; takesValue: Set<string>; positionals: number; variadic: boolean }> {
  const args = (await resolve(cmd.args)) ?? {};
  const known = new Set<string>(["help", "h"]);
  const takesValue = new Set<string>();
  let positionals = 0;
  let variadic = false;
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") {
      positionals++;
      // A positional whose value hint ends in "..." takes every remaining word (dataset verify TASK...).
      variadic ||= /(\.\.\.|…)$/.test((def as { valueHint?: string }).valueHint ?? "");
      continue;
    }
    const alias = (def as { alias?: string | string[] }).alias;
    const names = [name, kebab(name), ...(alias === undefined ? [] : Array.isArray(alias) ? alias : [alias])];
    for (const n of names) {
      known.add(n);
      if (def.type === "string" || def.type === "enum") takesValue.add(n);
      if (def.type === "boolean") known.add(`no-${n}`);
    }
  }
  return { known, takesValue, positionals, variadic };
}

/**
 * Reads the command's words once (argv.ts) and checks them: citty accepts any flag silently, and a
 * string flag given last without a value becomes "", so `--catalog` alone would quietly mean the
 * default. A CI script with a typo deserves an error.
 */
async function readFlags(cmd: AnyCommand, path: string[], words: string[]): Promise<Argv> {
  const { known, takesValue, positionals, variadic } = await flagNames(cmd);
  const argv = Argv.read(words, takesValue);
  const where = `ssebench ${path.join(" ")}`;
  for (const { name, value, words: given } of argv.flags) {
    const flag = (given[0] as string).split("=")[0];
    if (!known.has(name)) {
      throw new UserError(`${where}: unknown option '${flag}' (see '${where} --help')`, ExitCode.usage);
    }
    if (takesValue.has(name) && value === undefined) throw new UserError(`${where}: option '${flag}' needs a value`, ExitCode.usage);
  }
  const extra = variadic ? undefined : argv.positionals[positionals];
  if (extra !== undefined) {
    throw new UserError(`${where}: unexpected argument '${extra}' (see '${where} --help')`, ExitCode.usage);
  }
  return argv;
}

async function printUsage(cmd: AnyCommand, parent?: AnyCommand): Promise<void> {
  const { renderUsage } = await import("citty");
  write(`${await renderUsage(cmd, parent)}\n`);
}

/** Runs the CLI on argv and returns the exit code (the caller sets process.exitCode). */
export async function main(argv: string[]): Promise<number> {
  // citty decides on colour when it is first imported; decide for it from the real stdout.
  if (!process.stdout.isTTY) process.env.NO_COLOR ??= "1";
  endQuietlyOnClosedStdout();
  try {
    if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
      write(`ssebench ${VERSION}\n`);
      return ExitCode.ok;
    }
    const { cmd, path, rest, parent } = await resolveLeaf(argv);
    const wantsHelp = rest.includes("--help") || rest.includes("-h") || (path.length === 0 && rest.length === 0);
    if (wantsHelp || (!cmd.run && (await resolve(cmd.subCommands)))) {
      await printUsage(cmd, parent);
      return wantsHelp ? ExitCode.ok : ExitCode.usage;
    }
    const given = await readFlags(cmd, path, rest);
    const { runCommand } = await import("citty");
    try {
      // citty gives the command its typed args; `data` is the Argv, for flags given several times.
      const { result } = await runCommand(cmd, { rawArgs: rest, data: given });
      return typeof result === "number" ? result : ExitCode.ok;
    } catch (error) {
      if (error instanceof Error && error.name === "CLIError") {
        throw new UserError(`ssebench ${path.join(" ")}: ${error.message} (see 'ssebench ${path.join(" ")} --help')`, ExitCode.usage);
      }
      throw error;
    }
  } catch (error) {
    if (error instanceof UserError) {
      process.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`ssebench: internal error (a bug; please report it):\n${error instanceof Error ? error.stack : String(error)}\n`);
    return ExitCode.internal;
  }
}
