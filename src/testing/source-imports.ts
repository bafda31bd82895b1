/**
 * What the architecture tests read: the import lines of the project's own TypeScript sources. A
 * regular expression, not the compiler, so the tests stay fast; it reads every form the code uses
 * (static, type-only, multi-line, re-exports, side-effect and dynamic imports).
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const IMPORT_FROM =
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

const TYPE_ONLY = /^[\s;]*(?:import|export)\s+type\s/;

/**
 * Every module specifier a source text imports or re-exports (static, side-effect and dynamic); with
 * `types: false`, not those of `import type` and `export type` lines, which load nothing at run time.
 */
export function importedSpecifiers(source: string, { types = true }: { readonly types?: boolean } = {}): string[] {
  return [...source.matchAll(IMPORT_FROM)]
    .filter((match) => types || !TYPE_ONLY.test(match[0]))
    .map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/** Every `.ts` file under `dir`: the code that ships, and its tests (`*.test.ts`) unless `tests` is false. */
export function sourceFiles(dir: string, { tests = true }: { readonly tests?: boolean } = {}): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, { tests });
    return entry.name.endsWith(".ts") && (tests || !entry.name.endsWith(".test.ts")) ? [path] : [];
  });
}

const NAMED_IMPORT = /(?:^|[\s;])import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/gm;

/** The names a source text imports by name, each with its specifier (`a as b` is `a`; `type a` is `a`). */
export function importedNames(source: string): { readonly name: string; readonly specifier: string }[] {
  return [...source.matchAll(NAMED_IMPORT)].flatMap((match) =>
    match[1]!
      .split(",")
      .map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)[0]!,
      )
      .filter((name) => name !== "")
      .map((name) => ({ name, specifier: match[2]! })),
  );
}

/** One relative import of a file: the specifier as written and the absolute path it points at. */
export interface LocalImport {
  readonly specifier: string;
  readonly target: string;
}

/** The relative imports of `file` (package imports such as `node:fs` or `zod` are not ours). */
export function localImports(file: string, options: { readonly types?: boolean } = {}): LocalImport[] {
  return importedSpecifiers(readFileSync(file, "utf8"), options)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ specifier, target: resolve(dirname(file), specifier) }));
}

/** Whether `path` is `dir` itself or inside it (`src/agents-notes.ts` is not inside `src/agent`). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}
