import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./diff.ts";
import { matchesGlob } from "./glob.ts";
import { normalizePosix, resolveAllowedPath } from "./paths.ts";

const ROOTS = ["/workspace", "/shared"];

describe("glob matching (minimatch semantics, dot: true)", () => {
  it.each([
    ["README.md", "*.md", true],
    ["notes/todo.md", "*.md", false],
    ["notes/todo.md", "**/*.md", true],
    ["todo.md", "**/*.md", true],
    ["src/lib/db.ts", "src/**/*.ts", true],
    ["src/index.ts", "src/**/*.ts", true],
    [".env.example", "*.example", true],
    [".gitignore", ".git*", true],
    ["data/a.csv", "data/*.{csv,json}", true],
    ["data/a.txt", "data/*.{csv,json}", false],
    ["notes/meeting-2026-03-10.md", "notes/meeting-????-??-??.md", true],
    ["logs/app.log", "logs/[a-c]*.log", true],
    ["logs/zz.log", "logs/[!a-c]*.log", true],
    ["logs/app.log", "logs/[!a-c]*.log", false],
    ["src/a.ts", "src", false],
  ])("%s vs %s → %s", (path, pattern, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });
});

describe("path resolution", () => {
  it("normalises like path.resolve and never climbs above /", () => {
    expect(normalizePosix("/workspace//src/./lib/../index.ts")).toBe("/workspace/src/index.ts");
    expect(normalizePosix("/../../etc")).toBe("/etc");
  });

  it("keeps in-root paths and refuses escapes", () => {
    expect(resolveAllowedPath("src/index.ts", ROOTS)).toBe("/workspace/src/index.ts");
    expect(resolveAllowedPath("../shared/team", ROOTS)).toBe("/shared/team");
    expect(() => resolveAllowedPath("../../etc/passwd", ROOTS)).toThrow(
      "Access denied - path outside allowed directories: /etc/passwd not in /workspace, /shared",
    );
    expect(() => resolveAllowedPath("/shared-evil/x", ROOTS)).toThrow("Access denied");
  });
});

describe("unified diff (jsdiff createTwoFilesPatch format)", () => {
  const header =
    "Index: /f\n===================================================================\n--- /f\toriginal\n+++ /f\tmodified\n";

  it("writes one hunk with context", () => {
    expect(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "/f")).toBe(`${header}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`);
  });

  it("splits distant changes into separate hunks with 4 lines of context", () => {
    const before = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    const after = before.replace("line 2\n", "LINE 2\n").replace("line 19\n", "LINE 19\n");
    const diff = unifiedDiff(before, after, "/f");
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -1,6 +1,6 @@", "@@ -15,6 +15,6 @@"]);
  });

  it("marks a missing final newline and reports empty sides at line 0", () => {
    expect(unifiedDiff("x", "y", "/f")).toBe(
      `${header}@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n`,
    );
    expect(unifiedDiff("", "new\n", "/f")).toBe(`${header}@@ -0,0 +1,1 @@\n+new\n`);
  });
});
