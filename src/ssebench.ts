/** Entry of the `ssebench` binary: run the CLI, exit with its code. */
import { main } from "./cli/main.ts";

process.exitCode = await main(process.argv.slice(2));
