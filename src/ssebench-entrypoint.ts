/** Entry of the `ssebench-entrypoint` binary (the ENTRYPOINT of every run container). */
import { VERSION } from "./version.ts";

process.stdout.write(`ssebench-entrypoint ${VERSION}\n`);
