import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importedSpecifiers, isInside, localImports } from "./source-imports.ts";

describe("source imports", () => {
  const dir = mkdtempSync(join(tmpdir(), "source-imports-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads import lines of every form", () => {
    const source = [
      'import type { AgentResult } from "../../agent/types.ts";',
      'import {\n  a,\n  b,\n} from "./x.ts";',
      'export { c } from "./y.ts";',
      'export * from "./z.ts";',
      'import "./side-effect.ts";',
      'const m = await import("./lazy.ts");',
    ].join("\n");
    expect(importedSpecifiers(source)).toEqual([
      "../../agent/types.ts",
      "./x.ts",
      "./y.ts",
      "./z.ts",
      "./side-effect.ts",
      "./lazy.ts",
    ]);
  });

  it("keeps relative imports only, resolved against the importing file", () => {
    const file = join(dir, "a", "b.ts");
    writeFileSync(
      join(dir, "main.ts"),
      'import { z } from "zod";\nimport { readFileSync } from "node:fs";\nimport { x } from "./a/b.ts";\n',
    );
    expect(localImports(join(dir, "main.ts"))).toEqual([{ specifier: "./a/b.ts", target: file }]);
  });

  it("tells a folder's files from a sibling that shares its prefix", () => {
    expect(isInside("/src/agent/types.ts", "/src/agent")).toBe(true);
    expect(isInside("/src/agent", "/src/agent")).toBe(true);
    expect(isInside("/src/agents-notes.ts", "/src/agent")).toBe(false);
  });
});
