/**
 * Layering (DESIGN §11): every import from one unit to another, in shipped code and in tests alike, is
 * an edge that the table in docs/architecture.md ("Which part may import which") allows, and the
 * unit-level import graph has no cycle. A unit is a top-level folder under src/, except that each
 * folder of src/bench/ is a unit of its own; under mock-servers/, each server folder is a unit and the
 * files directly under it (the registry) are `mock-servers`. The files directly under src/ (errors.ts,
 * paths.ts, memo.ts, …) are the shared base every unit may import, and they import no unit themselves.
 * src/index.ts, the library's entry, sits above everything and may import any unit (no unit imports it).
 * Tests that cross layers on purpose live in test/contract/, outside every unit.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  type CrossImport,
  crossImports,
  Layering,
  parseLayerTable,
  readLayerTable,
  unitOf,
  violations,
} from "./layering.ts";
import { localImports, sourceFiles } from "./source-imports.ts";

const srcRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const repoRoot = dirname(srcRoot);
const roots = { src: srcRoot, mocks: join(repoRoot, "mock-servers") };
const LIBRARY_ENTRY = join(srcRoot, "index.ts");
const layering = new Layering(readLayerTable(join(repoRoot, "docs/architecture.md")));

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
    const lines = inside.map(({ from, to, file, specifier }) => `  ${from} → ${to}: ${file} imports ${specifier}`);
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

  it("names a unit by its top-level folder, its folder of src/bench, or its mock server", () => {
    expect(unitOf(`${srcRoot}/agent/skills/github.ts`, roots)).toBe("agent");
    expect(unitOf(`${srcRoot}/bench/scoring/testing/fixtures.ts`, roots)).toBe("bench/scoring");
    expect(unitOf(`${srcRoot}/errors.ts`, roots)).toBeUndefined();
    expect(unitOf(join(roots.mocks, "index.ts"), roots)).toBe("mock-servers");
    expect(unitOf(join(roots.mocks, "github/tools/issues.ts"), roots)).toBe("mock-servers/github");
    expect(unitOf(join(repoRoot, "scripts/x.ts"), roots)).toBeUndefined();
    expect(unitOf(join(repoRoot, "test/contract/agent/agent.test.ts"), roots)).toBeUndefined();
  });

  it("reads the table's three columns, `—` as none, and stops at its end marker", () => {
    const table = parseLayerTable(
      [
        "<!-- layering table -->",
        "| unit | may import | never imports |",
        "|---|---|---|",
        "| `agent` | `mcp`, `models` | `bench/*` |",
        "| `mcp` | — | — |",
        "<!-- /layering table -->",
        "| `cli` | `agent` | — |",
      ].join("\n"),
    );
    expect(table).toEqual([
      { unit: "agent", allowed: ["mcp", "models"], forbidden: ["bench/*"] },
      { unit: "mcp", allowed: [], forbidden: [] },
    ]);
    expect(() => parseLayerTable("| `agent` | `mcp` | — |")).toThrow(/layering table/);
  });

  it("the table keeps DESIGN §11's rules, contradicts itself nowhere and reads a new server folder as a server", () => {
    expect(layering.contradictions()).toEqual([]);
    for (const bench of ["bench/run", "bench/scoring", "bench/dataset"])
      expect(layering.forbids("agent", bench)).toBe(true);
    expect(layering.forbids("agent", "mock-servers/kit")).toBe(true);
    expect(layering.forbids("bench/scoring", "agent")).toBe(true);
    expect(layering.forbids("bench/stats", "agent")).toBe(true);
    expect(layering.allows("mock-servers/weather", "mock-servers/kit")).toBe(true);
    expect(layering.allows("mock-servers/weather", "models")).toBe(false);
    expect(layering.allows("mock-servers", "mock-servers/weather")).toBe(true);
  });

  describe("a forbidden import planted in a test file", () => {
    const planted = mkdtempSync(join(tmpdir(), "layering-"));
    afterAll(() => rmSync(planted, { recursive: true, force: true }));
    const plantedRoots = { src: join(planted, "src"), mocks: join(planted, "mock-servers") };
    const plant = (path: string, text: string): void => {
      mkdirSync(dirname(join(planted, path)), { recursive: true });
      writeFileSync(join(planted, path), text);
    };

    it("is found and named as forbidden", () => {
      plant("src/agent/run.ts", 'import { x } from "../models/types.ts";\n');
      plant("src/agent/run.test.ts", 'import { runBench } from "../bench/run/bench.ts";\n');
      plant("src/bench/scoring/score.test.ts", 'import type { AgentResult } from "../../agent/types.ts";\n');
      plant("test/contract/agent/run.test.ts", 'import { runBench } from "../../../src/bench/run/bench.ts";\n');
      const files = [...sourceFiles(plantedRoots.src), ...sourceFiles(join(planted, "test"))];
      expect(violations(crossImports(files, plantedRoots, planted), layering)).toEqual([
        "src/agent/run.test.ts imports ../bench/run/bench.ts: agent → bench/run is forbidden",
        "src/bench/scoring/score.test.ts imports ../../agent/types.ts: bench/scoring → agent is forbidden",
      ]);
    });
  });

  const files = [...sourceFiles(srcRoot), ...sourceFiles(roots.mocks)];

  it("scans test files as well as the code that ships", () => {
    expect(files).toContain(fileURLToPath(import.meta.url));
    expect(files.filter((file) => file.endsWith(".test.ts")).length).toBeGreaterThan(50);
  });

  it("the shared base files directly under src/ import no folder of src/", () => {
    const base = files.filter((file) => unitOf(file, roots) === undefined && file !== LIBRARY_ENTRY);
    expect(base.length).toBeGreaterThan(3);
    const upward = base.flatMap((file) =>
      localImports(file)
        .filter(({ target }) => unitOf(target, roots) !== undefined)
        .map(({ specifier }) => `${relative(repoRoot, file)} imports ${specifier}`),
    );
    expect(upward).toEqual([]);
  });

  const imports = crossImports(files, roots, repoRoot);

  it("no file of src/ imports the library entry (src/index.ts)", () => {
    const importers = files.filter((file) => localImports(file).some(({ target }) => target === LIBRARY_ENTRY));
    expect(importers.map((file) => relative(srcRoot, file))).toEqual([]);
  });

  it("the folders import each other without a cycle", () => {
    expect(new Set(imports.map(({ from }) => from)).size).toBeGreaterThan(8);
    expect(describeCycles(imports)).toEqual([]);
  });

  it("the stand-in Ollama renders prompts with code of its own, not the harness's renderer", () => {
    const renderer = join(srcRoot, "models/prompt-text.ts");
    const standin = files.filter((file) => unitOf(file, roots) === "mock-servers/ollama");
    expect(standin.length).toBeGreaterThan(10);
    const importers = standin.filter((file) => localImports(file).some(({ target }) => target === renderer));
    expect(importers.map((file) => relative(repoRoot, file))).toEqual([]);
  });

  it("every import from one folder to another is an edge of the table", () => {
    expect(violations(imports, layering)).toEqual([]);
  });

  it("the table has no row for a folder that is gone", () => {
    const units = new Set(files.map((file) => unitOf(file, roots)));
    const rows = layering.rows.map(({ unit }) => unit);
    expect(rows.filter((unit) => !unit.endsWith("/*") && !units.has(unit))).toEqual([]);
  });
});
