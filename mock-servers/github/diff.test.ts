import { describe, expect, it } from "vitest";
import { gitDiffSection, linePatch } from "./diff.ts";

describe("linePatch", () => {
  it("prints git's hunks with three lines of context and counts", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].join("\n") + "\n";
    const after = ["a", "b", "c", "d", "E", "f", "g", "h", "i", "j", "k"].join("\n") + "\n";
    expect(linePatch(before, after)).toEqual({
      additions: 2,
      deletions: 1,
      patch: "@@ -2,9 +2,10 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n i\n j\n+k",
    });
  });

  it("splits distant changes into separate hunks and handles new and deleted files", () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    const changed = lines.map((line, index) => (index === 1 || index === 17 ? `${line}!` : line));
    expect(linePatch(lines.join("\n"), changed.join("\n")).patch.match(/^@@.*@@$/gm)).toEqual([
      "@@ -1,5 +1,5 @@",
      "@@ -15,6 +15,6 @@",
    ]);
    expect(linePatch("", "x\ny\n")).toEqual({ additions: 2, deletions: 0, patch: "@@ -0,0 +1,2 @@\n+x\n+y" });
    expect(linePatch("x\n", "")).toEqual({ additions: 0, deletions: 1, patch: "@@ -1,1 +0,0 @@\n-x" });
  });

  it("heads a file section like git diff", () => {
    const section = gitDiffSection({
      path: "a.txt",
      status: "added",
      beforeSha: null,
      afterSha: "ce013625030ba8dba906f756967f9e9ca394464a",
      patch: "@@ -0,0 +1,1 @@\n+hello",
    });
    expect(section).toBe(
      "diff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000..ce01362\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+hello",
    );
  });
});
