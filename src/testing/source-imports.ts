/**
 * What the architecture tests read: the import lines of the project's own TypeScript sources. A
 * regular expression, not the compiler, so the tests stay fast; it reads every form the code uses
 * (static, type-only, multi-line, re-exports, side-effect and dynamic imports).
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const IMPORT_FROM =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** Every module specifier a source text imports or re-exports (static, side-effect and dynamic). */
export function importedSpecifiers(source: string): string[] {
  return [...source.matchAll(IMPORT_FROM)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/** Every `.ts` file under `dir`: the code that ships, and its tests (`*.test.ts`) unless `tests` is false. */
export function sourceFiles(dir: string, { tests = true }: { readonly tests?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, { tests });
    return entry.name.endsWith(".ts") && (tests || !entry.name.endsWith(".test.ts")) ? [path] : [];
  });
}

/** One relative import of a file: the specifier as written and the absolute path it points at. */
export interface LocalImport {
  readonly specifier: string;
  readonly target: string;
}

/** The relative imports of `file` (package imports such as `node:fs` or `zod` are not ours). */
export function localImports(file: string): LocalImport[] {
  return importedSpecifiers(readFileSync(file, "utf8"))
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ specifier, target: resolve(dirname(file), specifier) }));
}

/** Whether `path` is `dir` itself or inside it (`src/agents-notes.ts` is not inside `src/agent`). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
