/**
 * The one reader of the command line's words: the CLI's top level reads a command's words once into
 * an Argv (cli/main.ts), checks them against the command's flags, and hands the same Argv to the
 * command, which reads repeated flags from it (citty keeps only a flag's last value). A job's stored
 * command line (job.json `argv`) is read back with the same reader.
 *
 * A word starting with "-" (other than "-" alone) is a flag, `--name=value` or `--name value`; a flag
 * that takes a value takes the next word even when it starts with "-" (`-o -`, `--timeout -3`), as
 * citty's parser does. Words after "--" are positional.
 */

/** One flag as given. */
export interface GivenFlag {
  /** without its dashes, as written (`grading-timeout`, `o`) */
  name: string;
  /** `--name` (true) or a single-dash short flag such as `-o` */
  long: boolean;
  /** the value of a flag that takes one (undefined when the command line ends first) */
  value: string | undefined;
  /** the flag's words as given: `--name=value`, or `--name` and its value */
  words: string[];
}

type Item = GivenFlag | string;

export class Argv {
  private constructor(
    private readonly items: readonly Item[],
    /** the flag names that take a value (a command's string and enum flags) */
    readonly takesValue: ReadonlySet<string>,
  ) {}

  static read(words: readonly string[], takesValue: ReadonlySet<string>): Argv {
    const items: Item[] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      if (word === "--") {
        items.push(...words.slice(i));
        break;
      }
      if (!word.startsWith("-") || word === "-") {
        items.push(word);
        continue;
      }
      const [flag = "", inline] = word.split(/=(.*)/s, 2);
      const name = flag.replace(/^--?/, "");
      const long = flag.startsWith("--");
      if (inline !== undefined || !takesValue.has(name)) items.push({ name, long, value: inline, words: [word] });
      else if (i + 1 < words.length) items.push({ name, long, value: words[++i], words: [word, words[i] as string] });
      else items.push({ name, long, value: undefined, words: [word] });
    }
    return new Argv(items, takesValue);
  }

  /** Other words read as this command line's are (a stored command line of the same command). */
  reread(words: readonly string[]): Argv {
    return Argv.read(words, this.takesValue);
  }

  /** Every flag, in the order given (short ones too). */
  get flags(): GivenFlag[] {
    return this.items.filter((i): i is GivenFlag => typeof i !== "string");
  }

  /** The positional words: those before "--" that are no flag's value, then every word after it. */
  get positionals(): string[] {
    const words = this.items.filter((i): i is string => typeof i === "string");
    const end = words.indexOf("--");
    return end < 0 ? words : [...words.slice(0, end), ...words.slice(end + 1)];
  }

  // The multi-map: long flags by name. A single-dash word is a short flag (an alias such as -o),
  // which only the command's own parse gives a meaning.
  private long(name: string): GivenFlag[] {
    return this.flags.filter((f) => f.long && f.name === name);
  }

  /** The names of the long flags given, each once, in the order first given. */
  names(): string[] {
    return [...new Set(this.flags.filter((f) => f.long).map((f) => f.name))];
  }

  has(name: string): boolean {
    return this.long(name).length > 0;
  }

  count(name: string): number {
    return this.long(name).length;
  }

  /** Every value of a flag, in the order given. */
  values(name: string): string[] {
    return this.long(name).flatMap((f) => (f.value === undefined ? [] : [f.value]));
  }

  /** This command line without the long flags `drop` names (and their values). */
  without(drop: (name: string) => boolean): Argv {
    return new Argv(this.items.filter((i) => typeof i === "string" || !i.long || !drop(i.name)), this.takesValue);
  }

  /** This command line with the values of long flags changed by `change` (written as they were given). */
  mapValues(change: (name: string, value: string) => string): Argv {
    const items = this.items.map((i) => {
      if (typeof i === "string" || !i.long || i.value === undefined) return i;
      const value = change(i.name, i.value);
      if (value === i.value) return i;
      const first = i.words[0] as string;
      const words = i.words.length === 1 ? [`${first.split("=")[0]}=${value}`] : [first, value];
      return { ...i, value, words };
    });
    return new Argv(items, this.takesValue);
  }

  /** The words of this command line. */
  words(): string[] {
    return this.items.flatMap((i) => (typeof i === "string" ? [i] : i.words));
  }
}
