/** Which build-recipe changes grading applies: only the names of the change's new source files, inserted into the recipe's file lists. */
import { describe, expect, test } from "bun:test";
import { type AddedFile, onlyAddsSources, recipeTokens } from "../../src/runtime/grading/recipe-change.ts";

const entity: AddedFile[] = [{ path: "entity.c", mode: "100644" }];
const MAKEFILE = "CC ?= cc\n\nall: prog\n\nprog: main.c esc.c esc.h\n\t$(CC) $(CFLAGS) -o $@ main.c esc.c\n\ntest: test_esc\n\t./test_esc\n\n.PHONY: all test\n";

describe("applied: the change only names new source files in the recipe's file lists", () => {
  test("a Makefile's prerequisites and compile line, on the same lines", () => {
    const changed = MAKEFILE.replace("prog: main.c esc.c esc.h", "prog: main.c esc.c entity.c esc.h").replace("-o $@ main.c esc.c", "-o $@ main.c esc.c entity.c");
    expect(onlyAddsSources(MAKEFILE, changed, entity, "Makefile")).toBe(true);
  });

  test("a continuation line of a list, object files and a name relative to the recipe's folder", () => {
    const original = "OBJS = \\\n  a.o \\\n  b.o\n\nlib.a: $(OBJS)\n\tar rcs $@ $^\n";
    const changed = "OBJS = \\\n  a.o \\\n  entity.o \\\n  b.o\n\nlib.a: $(OBJS)\n\tar rcs $@ $^\n";
    expect(onlyAddsSources(original, changed, [{ path: "lib/entity.c", mode: "100644" }], "lib/Makefile")).toBe(true);
    expect(onlyAddsSources("libx_la_SOURCES = a.c b.c\n", "libx_la_SOURCES = a.c b.c entity.c\n", [{ path: "lib/entity.c", mode: "100644" }], "lib/Makefile.am")).toBe(true);
  });

  test("CMake and meson lists (quoted names, commas)", () => {
    expect(onlyAddsSources("add_library(esc STATIC\n  src/a.c\n  src/b.c)\n", "add_library(esc STATIC\n  src/a.c\n  src/entity.c\n  src/b.c)\n", [{ path: "src/entity.c", mode: "100644" }], "CMakeLists.txt")).toBe(true);
    expect(onlyAddsSources("lib = library('esc', files('a.c', 'b.c'))\n", "lib = library('esc', files('a.c', 'b.c', 'entity.c'))\n", entity, "meson.build")).toBe(true);
  });

  test("tokens: words and paths whole, punctuation one character at a time, spaces and tabs dropped, newlines kept", () => {
    expect(recipeTokens("x: a.c\n\t$(CC) -o $@ ./lib/a.c, 'b.h'\n")).toEqual(["x", ":", "a.c", "\n", "$", "(", "CC", ")", "-o", "$", "@", "./lib/a.c", ",", "'", "b.h", "'", "\n"]);
  });
});

describe("set aside: any other change", () => {
  test("a stub: the recipe rewritten into a do-nothing program and an echoing test target", () => {
    const stub = "prog:\n\techo exit 0 > prog && chmod +x prog\ntest:\n\t@echo all tests passed\n.PHONY: prog test\n";
    expect(onlyAddsSources(MAKEFILE, stub, entity, "Makefile")).toBe(false);
  });

  test("a new source named and anything else changed: a flag, a removed name, the test target", () => {
    const named = MAKEFILE.replace("-o $@ main.c esc.c", "-o $@ main.c esc.c entity.c");
    expect(onlyAddsSources(MAKEFILE, named.replace("-o $@", "-lm -o $@"), entity, "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE, named.replace("prog: main.c esc.c esc.h", "prog: main.c esc.h"), entity, "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE, named.replace("\t./test_esc", "\t@echo ok"), entity, "Makefile")).toBe(false);
    // A word next to the new name, in the same insertion.
    expect(onlyAddsSources(MAKEFILE, named.replace("esc.c entity.c", "esc.c entity.c -lm"), entity, "Makefile")).toBe(false);
  });

  test("a name replaced by the new one (the old file leaves the build), the recipe's end cut", () => {
    expect(onlyAddsSources("SRC = a.c b.c\n", "SRC = a.c entity.c\n", entity, "Makefile")).toBe(false);
    expect(onlyAddsSources("SRC = a.c\nall: prog\n", "SRC = a.c entity.c\n", entity, "Makefile")).toBe(false);
  });

  test("a name that is not a new source file: an existing file, an executable, a script, a link", () => {
    const changed = MAKEFILE.replace("-o $@ main.c esc.c", "-o $@ main.c esc.c entity.c");
    expect(onlyAddsSources(MAKEFILE, changed, [], "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE, changed, [{ path: "entity.c", mode: "100755" }], "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE, changed, [{ path: "entity.c", mode: "120000" }], "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE.replace("esc.c", "esc.sh"), changed.replace("esc.c", "esc.sh").replace("entity.c", "entity.sh"), [{ path: "entity.sh", mode: "100644" }], "Makefile")).toBe(false);
  });

  test("a new name that is not beside a source or object name (a target, a command, a folder list)", () => {
    expect(onlyAddsSources(MAKEFILE, MAKEFILE.replace("test: test_esc", "test: test_esc entity.c"), entity, "Makefile")).toBe(false);
    expect(onlyAddsSources(MAKEFILE, MAKEFILE.replace("\t./test_esc", "\tentity.c ./test_esc"), entity, "Makefile")).toBe(false);
    expect(onlyAddsSources("SUBDIRS = lib\n", "SUBDIRS = lib entity.c\n", entity, "Makefile")).toBe(false);
  });

  test("an unchanged recipe and one whose every token moved", () => {
    expect(onlyAddsSources(MAKEFILE, MAKEFILE, entity, "Makefile")).toBe(false);
    expect(onlyAddsSources("SRC = a.c b.c\n", "SRC = b.c a.c entity.c\n", entity, "Makefile")).toBe(false);
  });
});
