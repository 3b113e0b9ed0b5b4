/** The output helpers, as commands import them (they live below the CLI, in output/terminal.ts). */
export * from "../output/terminal.ts";
