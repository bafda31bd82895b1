/**
 * The layering rules (DESIGN §11) as data: the table of docs/architecture.md ("Which part may import
 * which") read into allowed and forbidden edges, and the units a file belongs to. The drawing and the
 * check are one table, so a new edge is drawn where it is enforced.
 */

import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isInside, localImports } from "./source-imports.ts";

/** Where the units live: src/ (folders of src/bench/ are units of their own) and mock-servers/. */
export interface LayerRoots {
  readonly src: string;
  readonly mocks: string;
}

/** The unit a path belongs to; undefined for the shared base and for paths outside src/ and mock-servers/. */
export function unitOf(path: string, roots: LayerRoots): string | undefined {
  if (isInside(path, roots.mocks)) {
    const parts = relative(roots.mocks, path).split(sep);
    return parts.length === 1 ? "mock-servers" : `mock-servers/${parts[0]}`;
  }
  if (!isInside(path, roots.src)) return undefined;
  const parts = relative(roots.src, path).split(sep);
  if (parts.length === 1) return undefined;
  return parts[0] === "bench" && parts.length > 2 ? `bench/${parts[1]}` : parts[0];
}

/** One row of the table: a unit (or `x/*`, every unit under x/), what it may import, what it must never import. */
export interface LayerRow {
  readonly unit: string;
  readonly allowed: readonly string[];
  readonly forbidden: readonly string[];
}

const TABLE_START = "<!-- layering table -->";
const TABLE_END = "<!-- /layering table -->";

/** A cell's unit names: each in backticks; `—` or an empty cell for none. */
function cellUnits(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** The rows of the table between the layering markers of a markdown text. */
export function parseLayerTable(markdown: string, source = "docs/architecture.md"): LayerRow[] {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${source}: no ${TABLE_START} … ${TABLE_END} block`);
  const lines = markdown
    .slice(start + TABLE_START.length, end)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("|"));
  // the header and the |---| line
  return lines.slice(2).map((line) => {
    const cells = line.split("|").slice(1, -1);
    const [unit] = cellUnits(cells[0] ?? "");
    if (unit === undefined || cells.length < 3)
      throw new Error(`${source}: a layering row needs a unit and two cells: ${line}`);
    return { unit, allowed: cellUnits(cells[1]!), forbidden: cellUnits(cells[2]!) };
  });
}

export function readLayerTable(path: string): LayerRow[] {
  return parseLayerTable(readFileSync(path, "utf8"), path);
}

/** Whether a table name (a unit, or `x/*` for every unit under x/) names `unit`. */
export function names(pattern: string, unit: string): boolean {
  return pattern.endsWith("/*") ? unit.startsWith(pattern.slice(0, -1)) : pattern === unit;
}

/** The rules of a table: a unit's own row, else the first `x/*` row that names it. */
export class Layering {
  constructor(readonly rows: readonly LayerRow[]) {}

  rowOf(unit: string): LayerRow | undefined {
    return this.rows.find((row) => row.unit === unit) ?? this.rows.find((row) => names(row.unit, unit));
  }

  allows(from: string, to: string): boolean {
    return (this.rowOf(from)?.allowed ?? []).some((pattern) => names(pattern, to));
  }

  forbids(from: string, to: string): boolean {
    return (this.rowOf(from)?.forbidden ?? []).some((pattern) => names(pattern, to));
  }

  /** The names a row both allows and forbids: each is a contradiction in the table. */
  contradictions(): string[] {
    return this.rows.flatMap(({ unit, allowed, forbidden }) =>
      allowed
        .filter((edge) => forbidden.some((never) => names(never, edge) || names(edge, never)))
        .map((edge) => `${unit} → ${edge}`),
    );
  }
}

/** The folder of a unit (the inverse of `unitOf`): src/<unit>, or mock-servers/<server> and mock-servers itself. */
export function unitRoot(unit: string, roots: LayerRoots): string {
  if (unit === "mock-servers") return roots.mocks;
  if (unit.startsWith("mock-servers/")) return join(roots.mocks, unit.slice("mock-servers/".length));
  return join(roots.src, unit);
}

/**
 * The files through which a unit offers code to other units, relative to its folder: `index.ts`, its
 * public surface for Node code; `browser.ts`, the part of it the viewer's browser code may load (a
 * barrel pulls every module it names into the bundle, and the browser has no `node:fs`); and
 * `testing/index.ts`, its helpers for other units' tests and measurements, kept out of the shipped surface.
 */
export const ENTRY_FILES = { node: "index.ts", browser: "browser.ts", testing: "testing/index.ts" } as const;

/** One import line that crosses from one unit to another. */
export interface CrossImport {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly specifier: string;
  /** The absolute path the specifier points at. */
  readonly target: string;
}

/** The import lines of `files` that cross units; `file` is relative to `base`. */
export function crossImports(files: readonly string[], roots: LayerRoots, base: string): CrossImport[] {
  return files.flatMap((file) => {
    const from = unitOf(file, roots);
    if (from === undefined) return [];
    return localImports(file).flatMap(({ specifier, target }) => {
      const to = unitOf(target, roots);
      return to === undefined || to === from ? [] : [{ from, to, file: relative(base, file), specifier, target }];
    });
  });
}

/**
 * The files the browser loads from `entryFiles`: each file they import at run time, and its imports in
 * turn (`import type` and `export type` lines load nothing and are not followed).
 */
export function browserClosure(entryFiles: readonly string[]): Set<string> {
  const loaded = new Set<string>();
  const queue = [...entryFiles];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (loaded.has(file)) continue;
    loaded.add(file);
    // a missing file is the compiler's error to report, not this reader's
    for (const { target } of localImports(file, { types: false })) if (existsSync(target)) queue.push(target);
  }
  return loaded;
}

/**
 * Each import that reaches past another unit's entry files, one line each. A file the browser loads
 * (`browserFiles`) imports `browser.ts` entries only; every other file imports `index.ts` or `testing/index.ts`.
 */
export function entryViolations(
  imports: readonly CrossImport[],
  roots: LayerRoots,
  base: string,
  browserFiles: ReadonlySet<string>,
): string[] {
  const lines = imports.flatMap(({ to, file, specifier, target }) => {
    const folder = unitRoot(to, roots);
    const browser = browserFiles.has(join(base, file));
    const entries = browser ? [ENTRY_FILES.browser] : [ENTRY_FILES.node, ENTRY_FILES.testing];
    if (entries.some((entry) => target === join(folder, entry))) return [];
    const expected = entries.map((entry) => relative(base, join(folder, entry))).join(" or ");
    return [`${file} imports ${specifier}: another unit's code is reached through ${expected}`];
  });
  return [...new Set(lines)].sort();
}

/**
 * Each shipped file that imports an entry file of its own unit: a barrel imported from inside its unit
 * loads in a cycle. A test, which nothing imports, may test its unit through the entry.
 */
export function ownEntryImports(files: readonly string[], roots: LayerRoots, base: string): string[] {
  return files.flatMap((file) => {
    const unit = unitOf(file, roots);
    if (unit === undefined || file.endsWith(".test.ts")) return [];
    const entries = Object.values(ENTRY_FILES).map((entry) => join(unitRoot(unit, roots), entry));
    return localImports(file)
      .filter(({ target }) => target !== file && entries.includes(target))
      .map(({ specifier }) => `${relative(base, file)} imports its own unit's entry ${specifier}`);
  });
}

/** Each import the table does not allow, one line each, saying whether the design forbids it outright. */
export function violations(imports: readonly CrossImport[], layering: Layering): string[] {
  const lines = imports
    .filter(({ from, to }) => !layering.allows(from, to))
    .map(({ from, to, file, specifier }) => {
      if (layering.rowOf(from) === undefined)
        return `${file} imports ${specifier}: the folder ${from} has no row in the table`;
      const why = layering.forbids(from, to) ? "is forbidden" : "is not an allowed edge";
      return `${file} imports ${specifier}: ${from} → ${to} ${why}`;
    });
  return [...new Set(lines)].sort();
}
