/**
 * The layering rules (DESIGN §11) as data: the table of docs/architecture.md ("Which part may import
 * which") read into allowed and forbidden edges, and the units a file belongs to. The drawing and the
 * check are one table, so a new edge is drawn where it is enforced.
 */

import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { entryListing, namedImports } from "./entry-listing.ts";
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
 * A unit's entry files, relative to its folder: `index.ts` lists what other units may use, and
 * `testing/index.ts` the unit's helpers for other units' tests, kept out of the shipped list.
 */
export const ENTRY_FILES = { shipped: "index.ts", testing: "testing/index.ts" } as const;

/** The entry that must list a name another unit imports from `target`: the testing entry for a helper. */
export function entryFor(unit: string, target: string, roots: LayerRoots): string {
  const folder = unitRoot(unit, roots);
  return join(folder, isInside(target, join(folder, "testing")) ? ENTRY_FILES.testing : ENTRY_FILES.shipped);
}

/** One import line that crosses from one unit to another. */
export interface CrossImport {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly specifier: string;
}

/** The import lines of `files` that cross units; `file` is relative to `base`. */
export function crossImports(files: readonly string[], roots: LayerRoots, base: string): CrossImport[] {
  return files.flatMap((file) => {
    const from = unitOf(file, roots);
    if (from === undefined) return [];
    return localImports(file).flatMap(({ specifier, target }) => {
      const to = unitOf(target, roots);
      return to === undefined || to === from ? [] : [{ from, to, file: relative(base, file), specifier }];
    });
  });
}

/**
 * Each name one unit imports from another that the other's entry does not list from that very file,
 * one line each. A unit imports the file that defines a name (so a module loads what it uses, not the
 * whole of another unit), and only names that unit's entry lists.
 */
export function unlistedImports(files: readonly string[], roots: LayerRoots, base: string): string[] {
  const listings = new Map<string, Map<string, string> | undefined>();
  const listingOf = (entry: string) => {
    if (!listings.has(entry)) listings.set(entry, existsSync(entry) ? entryListing(entry) : undefined);
    return listings.get(entry);
  };
  const lines = files.flatMap((file) => {
    const from = unitOf(file, roots);
    if (from === undefined) return [];
    return namedImports(file).flatMap(({ specifier, target, names }) => {
      const to = unitOf(target, roots);
      if (to === undefined || to === from) return [];
      const entry = entryFor(to, target, roots);
      const listing = listingOf(entry);
      const where = `${relative(base, file)} imports`;
      if (listing === undefined) return [`${where} ${specifier}: ${to} has no entry file ${relative(base, entry)}`];
      return names.flatMap((name) => {
        if (name === "*" || name === "default")
          return [`${where} all of ${specifier}: import the names ${relative(base, entry)} lists`];
        const listed = listing.get(name);
        if (listed === target) return [];
        const why = listed === undefined ? "does not list it" : `lists it from ${relative(base, listed)}`;
        return [`${where} ${name} from ${specifier}: ${relative(base, entry)} ${why}`];
      });
    });
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
