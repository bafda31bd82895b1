/**
 * Layering (DESIGN §11): every import from one unit to another, in shipped code and in tests alike, is
 * an edge that the table in docs/architecture.md ("Which part may import which") allows, and the
 * unit-level import graph has no cycle. A unit is a top-level folder under src/, except that each
 * folder of src/bench/ is a unit of its own; under mock-servers/, each server folder is a unit and the
 * files directly under it (the registry) are `mock-servers`. The files directly under src/ (errors.ts,
 * paths.ts, memo.ts, …) are the shared base every unit may import, and they import no unit themselves.
 * src/index.ts, the library's entry, sits above everything and may import any unit (no unit imports it).
 * Tests that cross layers on purpose live in test/contract/, outside every unit. A name one unit imports
 * from another is listed in the other's entry (index.ts, or testing/index.ts for a test helper), from the
 * file the import names.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { exportedNames, namedImports } from "./entry-listing.ts";
import {
  type CrossImport,
  crossImports,
  ENTRY_FILES,
  Layering,
  ownEntryImports,
  parseLayerTable,
  readLayerTable,
  unitOf,
  unitRoot,
  unlistedImports,
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

    it("is found when the other unit's entry does not list the name, or lists it from another file", () => {
      plant("src/models/index.ts", 'export { a, type B } from "./x.ts";\nexport * from "./types.ts";\n');
      plant("src/models/x.ts", "export const a = 1;\nexport type B = number;\nexport const c = 2;\n");
      plant("src/models/types.ts", "export interface T {}\nexport const u = 3;\n");
      plant("src/models/testing/index.ts", 'export { fake } from "./fake.ts";\n');
      plant(
        "src/agent/listed.ts",
        'import { a, type B } from "../models/x.ts";\nimport type { T } from "../models/types.ts";\nimport { fake } from "../models/testing/fake.ts";\n',
      );
      plant("src/agent/unlisted.ts", 'import { c } from "../models/x.ts";\nimport { a } from "../models/index.ts";\n');
      plant("src/agent/helper.test.ts", 'import { other } from "../models/testing/other.ts";\n');
      // written in two pieces, so that this file's own import reader does not take it for an import
      const dynamicImport = ["const { u } = await import", '("../models/types.ts");'].join("");
      plant("src/agent/whole.ts", `import * as x from "../models/x.ts";\n${dynamicImport}\n`);
      plant("src/agent/no-entry.ts", 'import { y } from "../python/y.ts";\n');
      const files = sourceFiles(join(plantedRoots.src, "agent"));
      expect(unlistedImports(files, plantedRoots, planted)).toEqual([
        "src/agent/helper.test.ts imports other from ../models/testing/other.ts: src/models/testing/index.ts does not list it",
        "src/agent/no-entry.ts imports ../python/y.ts: python has no entry file src/python/index.ts",
        // the files the first planted test left in the same folders
        "src/agent/run.test.ts imports ../bench/run/bench.ts: bench/run has no entry file src/bench/run/index.ts",
        "src/agent/run.ts imports x from ../models/types.ts: src/models/index.ts does not list it",
        "src/agent/unlisted.ts imports a from ../models/index.ts: src/models/index.ts lists it from src/models/x.ts",
        "src/agent/unlisted.ts imports c from ../models/x.ts: src/models/index.ts does not list it",
        "src/agent/whole.ts imports all of ../models/x.ts: import the names src/models/index.ts lists",
      ]);
    });

    it("is found when a shipped file imports its own unit's entry", () => {
      plant("src/models/factory.ts", 'import { x } from "./index.ts";\n');
      plant("src/models/factory.test.ts", 'import { x } from "./index.ts";\n');
      plant("src/models/sim/run.ts", 'import { y } from "../testing/index.ts";\n');
      expect(ownEntryImports(sourceFiles(join(plantedRoots.src, "models")), plantedRoots, planted)).toEqual([
        "src/models/factory.ts imports its own unit's entry ./index.ts",
        "src/models/sim/run.ts imports its own unit's entry ../testing/index.ts",
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
    const rendererNames = exportedNames(renderer);
    expect(rendererNames).toContain("renderPrompt");
    const models = [renderer, join(srcRoot, "models/index.ts")];
    const standin = files.filter((file) => unitOf(file, roots) === "mock-servers/ollama");
    expect(standin.length).toBeGreaterThan(10);
    const taken = standin.flatMap((file) =>
      namedImports(file)
        .filter(({ target }) => models.includes(target))
        .flatMap(({ names }) => names.filter((name) => rendererNames.includes(name)))
        .map((name) => `${relative(repoRoot, file)} imports ${name}`),
    );
    expect(taken).toEqual([]);
  });

  it("every import from one folder to another is an edge of the table", () => {
    expect(violations(imports, layering)).toEqual([]);
  });

  it("every name one folder imports from another is listed in the other's entry, from the file it names", () => {
    expect(unlistedImports(files, roots, repoRoot)).toEqual([]);
  });

  it("the library entry (src/index.ts) composes the parts' entry files", () => {
    const past = localImports(LIBRARY_ENTRY).filter(({ target }) => {
      const unit = unitOf(target, roots);
      return unit !== undefined && target !== join(unitRoot(unit, roots), ENTRY_FILES.shipped);
    });
    expect(localImports(LIBRARY_ENTRY).length).toBeGreaterThan(8);
    expect(past.map(({ specifier }) => specifier)).toEqual([]);
  });

  it("no shipped file imports its own folder's entry file", () => {
    expect(ownEntryImports(files, roots, repoRoot)).toEqual([]);
  });

  it("the table has no row for a folder that is gone", () => {
    const units = new Set(files.map((file) => unitOf(file, roots)));
    const rows = layering.rows.map(({ unit }) => unit);
    expect(rows.filter((unit) => !unit.endsWith("/*") && !units.has(unit))).toEqual([]);
  });
});
