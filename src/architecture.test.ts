/**
 * Layering (DESIGN §11): dependencies between the folders of src/ run one way, so the folder-level
 * import graph of the shipped code (test files are not scanned) has no cycle. A unit is a top-level
 * folder under src/, except that each folder of src/bench/ is a unit of its own; the files directly
 * under src/ (errors.ts, paths.ts, memo.ts, …) are the shared base every unit may import, and they
 * import no unit themselves. src/index.ts, the library's entry, sits above everything and may import any unit
 * (no unit imports it).
 */

import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isInside, localImports, sourceFiles } from "./testing/source-imports.ts";

const srcRoot = dirname(fileURLToPath(import.meta.url));
const LIBRARY_ENTRY = join(srcRoot, "index.ts");

/** The unit a path under src/ belongs to; undefined for the shared base and for paths outside src/. */
function unitOf(path: string): string | undefined {
  if (!isInside(path, srcRoot)) return undefined;
  const parts = relative(srcRoot, path).split(sep);
  if (parts.length === 1) return undefined;
  return parts[0] === "bench" && parts.length > 2 ? `bench/${parts[1]}` : parts[0];
}

/** One import line that crosses from one unit to another. */
interface CrossImport {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly specifier: string;
}

function crossImports(files: readonly string[]): CrossImport[] {
  return files.flatMap((file) => {
    const from = unitOf(file);
    if (from === undefined) return [];
    return localImports(file).flatMap(({ specifier, target }) => {
      const to = unitOf(target);
      return to === undefined || to === from ? [] : [{ from, to, file: relative(srcRoot, file), specifier }];
    });
  });
}

/** The strongly connected components with more than one unit (Tarjan): each is a set of units in a cycle. */
function cycles(edges: readonly Pick<CrossImport, "from" | "to">[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    next.set(from, (next.get(from) ?? new Set()).add(to));
    if (!next.has(to)) next.set(to, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (unit: string): void => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    for (const to of next.get(unit)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(unit, Math.min(low.get(unit)!, index.get(to)!));
      }
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) found.push(component.sort());
  };
  for (const unit of [...next.keys()].sort()) if (!index.has(unit)) visit(unit);
  return found;
}

/** Each cycle with the edges inside it and the import lines behind each edge. */
function describeCycles(imports: readonly CrossImport[]): string[] {
  return cycles(imports).map((units) => {
    const inside = imports.filter(({ from, to }) => units.includes(from) && units.includes(to));
    const lines = inside.map(({ from, to, file, specifier }) => `  ${from} → ${to}: src/${file} imports ${specifier}`);
    return [`cycle among ${units.join(", ")}:`, ...[...new Set(lines)].sort()].join("\n");
  });
}

describe("folder layering", () => {
  it("finds the units of a cycle and nothing in an acyclic graph", () => {
    const edge = (from: string, to: string) => ({ from, to });
    expect(cycles([edge("cli", "bench/run"), edge("bench/run", "agent"), edge("agent", "models")])).toEqual([]);
    expect(
      cycles([
        edge("cli", "agent"),
        edge("agent", "models"),
        edge("models", "config"),
        edge("config", "agent"),
        edge("config", "mcp"),
        edge("bench/scoring", "bfcl"),
        edge("bfcl", "bench/scoring"),
      ]),
    ).toEqual([
      ["agent", "config", "models"],
      ["bench/scoring", "bfcl"],
    ]);
  });

  it("names a unit by its top-level folder, or its folder of src/bench", () => {
    expect(unitOf(`${srcRoot}/agent/skills/github.ts`)).toBe("agent");
    expect(unitOf(`${srcRoot}/bench/scoring/testing/fixtures.ts`)).toBe("bench/scoring");
    expect(unitOf(`${srcRoot}/errors.ts`)).toBeUndefined();
    expect(unitOf(join(srcRoot, "../mock-servers/index.ts"))).toBeUndefined();
  });

  const files = sourceFiles(srcRoot);

  it("the shared base files directly under src/ import no folder of src/", () => {
    const base = files.filter((file) => unitOf(file) === undefined && file !== LIBRARY_ENTRY);
    expect(base.length).toBeGreaterThan(3);
    const upward = base.flatMap((file) =>
      localImports(file)
        .filter(({ target }) => unitOf(target) !== undefined)
        .map(({ specifier }) => `src/${relative(srcRoot, file)} imports ${specifier}`),
    );
    expect(upward).toEqual([]);
  });

  it("no file of src/ imports the library entry (src/index.ts)", () => {
    const importers = files.filter((file) => localImports(file).some(({ target }) => target === LIBRARY_ENTRY));
    expect(importers.map((file) => relative(srcRoot, file))).toEqual([]);
  });

  it("the folders of src/ import each other without a cycle", () => {
    const imports = crossImports(files);
    expect(new Set(imports.map(({ from }) => from)).size).toBeGreaterThan(8);
    expect(describeCycles(imports)).toEqual([]);
  });
});
