/**
 * Types of embedded-home.gen.js, which scripts/build/embed-home.ts generates at build time (the files
 * `ssebench run` needs outside a checkout, embedded-home-files.ts). Not committed: build first.
 */
import type { HomeFile } from "./embedded-home-files.ts";

export const digest: string;
export const files: readonly HomeFile[];
