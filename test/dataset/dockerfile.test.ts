import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { isPinned, logicalLines, parseDockerfile, resolveImagePath } from "../../src/dataset/dockerfile.ts";
import { tempDir } from "../helpers/cli.ts";
import { writeFiles } from "./fixture.ts";

const base = (text: string) => parseDockerfile(text).final.image;

describe("Dockerfile reading (spec §1.3)", () => {
  test("base extraction vectors", () => {
    expect(base("FROM example.org/base")).toBe("example.org/base");
    expect(base("FROM a\nFROM b:1")).toBe("b:1");
    expect(base("FROM --platform=linux/amd64 c AS build")).toBe("c");
    expect(base("FROM d:2 AS build\nFROM build")).toBe("d:2");
    expect(base("ARG REG=reg.test\nFROM ${REG}/base-c")).toBe("reg.test/base-c");
    expect(base("ARG SSEBENCH_REGISTRY=reg.test\nFROM $SSEBENCH_REGISTRY/base-c")).toBe("${SSEBENCH_REGISTRY}/base-c");
    expect(base("FROM $REG/base-c")).toBe("${REG}/base-c");
    expect(base("FROM a\nARG X=y\nFROM $X")).toBe("${X}");
    expect(base("from e")).toBe("e");
  });

  test("logical lines: comments vanish, continuations join, dangling continuation kept", () => {
    expect(logicalLines("# syntax=x\n  FROM a \\\n  # inside\n  AS b\n\nRUN x \\")).toEqual(["FROM a AS b", "RUN x"]);
  });

  test("global ARGs: one name per line, quotes stripped, later ARGs ignored", () => {
    const d = parseDockerfile(`ARG A="1"\nARG B\nARG C D=2\nFROM x\nARG E=3`);
    expect([...d.globalArgs]).toEqual([
      ["A", "1"],
      ["B", null],
    ]);
  });

  test("COPY/ADD: JSON form, --from ignored, flags dropped, several sources make a folder", () => {
    const d = parseDockerfile(
      `FROM x\nWORKDIR /w\nCOPY --chown=1 a b dst\nADD ["/c", "d/../e", "/abs/"]\nCOPY --from=build /x /y\nADD https://example.org/f /g\nWORKDIR rel`,
    );
    expect(d.final.copies).toEqual([
      { source: "a", dest: "/w/dst/" },
      { source: "b", dest: "/w/dst/" },
      { source: "c", dest: "/abs/" },
      { source: "e", dest: "/abs/" },
    ]);
    expect(d.final.workdir).toBe("/w/rel");
  });

  test("errors", () => {
    expect(() => parseDockerfile("RUN x")).toThrow("no FROM instruction");
    expect(() => parseDockerfile("FROM a b c d")).toThrow("cannot parse 'FROM a b c d'");
    expect(() => parseDockerfile("FROM a\nADD x")).toThrow("cannot parse COPY 'x'");
    expect(() => parseDockerfile(`FROM a\nCOPY "x`)).toThrow(`cannot parse COPY '"x'`);
  });

  test("pinned refs", () => {
    expect(["b:1.0.0", `b@sha256:${"0".repeat(64)}`, "reg:5000/b:1"].map(isPinned)).toEqual([true, true, true]);
    expect(["b", "b:latest", "b:${TAG}", "reg:5000/b", "b:"].map(isPinned)).toEqual([false, false, false, false, false]);
  });
});

describe("resolveImagePath", () => {
  const tmp = tempDir("ssebench-resolve-");
  afterAll(tmp.cleanup);
  writeFiles(tmp.path, { "sse/config.yaml": "x", "sse/pocs/a": "", "other/config.yaml": "y", "one.txt": "" });

  test("folders map recursively; the last matching copy wins", () => {
    const d = parseDockerfile("FROM x\nCOPY sse/ /ssebench/\nCOPY other /ssebench");
    expect(resolveImagePath(tmp.path, d, "/ssebench/config.yaml")).toBe(join(tmp.path, "other/config.yaml"));
    expect(resolveImagePath(tmp.path, d, "/ssebench/pocs/a")).toBe(join(tmp.path, "sse/pocs/a"));
    expect(resolveImagePath(tmp.path, d, "/ssebench/pocs")).toBeNull();
  });

  test("a file lands at the destination, or inside it when the destination ends in /", () => {
    expect(resolveImagePath(tmp.path, parseDockerfile("FROM x\nCOPY one.txt /ssebench/x"), "/ssebench/x")).toBe(join(tmp.path, "one.txt"));
    expect(resolveImagePath(tmp.path, parseDockerfile("FROM x\nCOPY one.txt /ssebench/"), "/ssebench/one.txt")).toBe(join(tmp.path, "one.txt"));
    expect(resolveImagePath(tmp.path, parseDockerfile("FROM x\nCOPY one.txt /ssebench"), "/ssebench/one.txt")).toBeNull();
  });
});
