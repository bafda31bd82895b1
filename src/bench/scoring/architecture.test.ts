/**
 * Dependency rule (DESIGN §11): the scorer and the statistics never import the agent — not even its
 * types — so a score cannot depend on how the pipeline happens to work. Test files may (they check
 * the scorer against real agent runs), so they are not scanned.
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const srcRoot = resolve(here, "../..");
const scanned = [here, resolve(here, "../stats")];
const agentRoot = join(srcRoot, "agent");

const IMPORT_FROM =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** Every module specifier a source text imports or re-exports (static, side-effect and dynamic). */
function importedSpecifiers(source: string): string[] {
  return [...source.matchAll(IMPORT_FROM)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function importsAgent(file: string, specifier: string): boolean {
  if (!specifier.startsWith(".")) return false;
  const target = resolve(dirname(file), specifier);
  return target === agentRoot || target.startsWith(`${agentRoot}/`);
}

describe("architecture", () => {
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
    expect(importsAgent(join(here, "types.ts"), "../../agent/types.ts")).toBe(true);
    expect(importsAgent(join(here, "types.ts"), "../../agents-notes.ts")).toBe(false);
  });

  it("no file under src/bench/scoring or src/bench/stats imports src/agent", () => {
    const files = scanned.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(10);
    const violations = files.flatMap((file) =>
      importedSpecifiers(readFileSync(file, "utf8"))
        .filter((specifier) => importsAgent(file, specifier))
        .map((specifier) => `${relative(srcRoot, file)} imports ${specifier}`),
    );
    expect(violations).toEqual([]);
  });
});
