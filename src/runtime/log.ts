/** logfmt lines (`time=… level=… service=ssebench msg=… k=v`) to stdout and, once known, a file. */
import { appendFileSync } from "node:fs";
import { writeOut } from "./write-out.ts";

type Level = "DEBUG" | "INFO" | "WARN" | "ERROR";
let debug = false;
let file: string | undefined;

export function configureLog(opts: { debug: boolean; file?: string }): void {
  debug = opts.debug;
  file = opts.file;
}

function quote(value: string): string {
  return value === "" || /[\s"=]/.test(value) ? `"${value.replaceAll('"', '\\"')}"` : value;
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (level === "DEBUG" && !debug) return;
  if (debug) fields = { ...fields, t_ms: Math.round(performance.now()) };
  const time = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  let line = `time=${time} level=${level} service=ssebench msg=${quote(message)}`;
  for (const [k, v] of Object.entries(fields)) line += ` ${k}=${quote(String(v))}`;
  line += "\n";
  writeOut(1, line);
  if (file) {
    try {
      appendFileSync(file, line);
    } catch {
      file = undefined; // the results dir went away; stdout still has the line
    }
  }
}
