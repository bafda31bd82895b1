/**
 * Layering (DESIGN §11): every import from one folder to another is an edge the table below allows,
 * and the folder-level import graph of the shipped code (test files are not scanned) has no cycle.
 * A unit is a top-level folder under src/, except that each folder of src/bench/ is a unit of its own;
 * under mock-servers/, each server folder is a unit and the files directly under it (the registry) are
 * `mock-servers`. The files directly under src/ (errors.ts, paths.ts, memo.ts, …) are the shared base
 * every unit may import, and they import no unit themselves.
 * src/index.ts, the library's entry, sits above everything and may import any unit (no unit imports it).
 */

import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isInside, localImports, sourceFiles } from "./testing/source-imports.ts";

const srcRoot = dirname(fileURLToPath(import.meta.url));
const repoRoot = dirname(srcRoot);
const mockRoot = join(repoRoot, "mock-servers");
const LIBRARY_ENTRY = join(srcRoot, "index.ts");

/** The unit a path belongs to; undefined for the shared base and for paths outside src/ and mock-servers/. */
function unitOf(path: string): string | undefined {
  if (isInside(path, mockRoot)) {
    const parts = relative(mockRoot, path).split(sep);
    return parts.length === 1 ? "mock-servers" : `mock-servers/${parts[0]}`;
  }
  if (!isInside(path, srcRoot)) return undefined;
  const parts = relative(srcRoot, path).split(sep);
  if (parts.length === 1) return undefined;
  return parts[0] === "bench" && parts.length > 2 ? `bench/${parts[1]}` : parts[0];
}

/** A server folder of mock-servers/ with no row of its own takes this one's: servers are not a closed list. */
const ANY_SERVER = "mock-servers/*";

/**
 * Which units each unit may import, written from the code (DESIGN §11: cli → bench/report → agent →
 * models, mcp; the agent never imports the bench, the scorer never imports the agent). A new edge is a
 * design decision: add it here, in the same change.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  mcp: [],
  python: [],
  trace: [],
  testing: [],
  models: ["mcp"],
  agent: ["mcp", "models", "mock-servers/kit"],
  // mcp: an agent file (config/agent-file.ts) lists its servers as registry entries
  config: ["agent", "mcp", "models"],
  "bench/stats": [],
  "bench/dataset": ["agent", "mcp", "mock-servers", "mock-servers/kit"],
  "bench/scoring": ["bench/dataset", "bench/stats", "models", "python"],
  bfcl: ["agent", "bench/dataset", "bench/scoring", "mcp", "mock-servers/kit", "models", "python"],
  // conversations (the h27 branch): turn by turn over the bench's environment, store and scorer
  "bench/conversation": [
    "agent",
    "bench/dataset",
    "bench/run",
    "bench/scoring",
    "config",
    "mcp",
    "mock-servers",
    "models",
  ],
  "bench/run": [
    "agent",
    "bench/dataset",
    "bench/scoring",
    "bench/stats",
    "bfcl",
    "config",
    "mcp",
    "mock-servers",
    "mock-servers/kit",
    "models",
    "trace",
  ],
  // the perf scripts measure every part, the parsers' fuzz corpus included
  "bench/perf": [
    "agent",
    "bench/dataset",
    "bench/run",
    "bench/scoring",
    "bench/stats",
    "bfcl",
    "config",
    "mcp",
    "mock-servers",
    // model-time runs the bench against the stand-in Ollama server
    "mock-servers/ollama",
    "models",
    "serve",
    "view",
  ],
  report: ["agent", "bench/run", "bench/scoring", "bench/stats", "models"],
  // the web viewer: browser code over the services' types and the report's table builders (which import no
  // Node); and the Chromium finder of its browser tests and page timing
  view: ["agent", "bench/run", "bench/scoring", "models", "report", "serve"],
  // the exported agent: the agent and its providers, the bench's tool hosts (dry run), the serve routes
  export: ["agent", "bench/run", "config", "mcp", "models", "serve"],
  // the HTTP and MCP services over runs, reports and one-query runs
  serve: [
    "agent",
    "bench/conversation",
    "bench/dataset",
    "bench/run",
    "bench/scoring",
    "bench/stats",
    "config",
    "mcp",
    "models",
    "report",
  ],
  cli: [
    "agent",
    "bench/conversation",
    "bench/dataset",
    "bench/perf",
    "bench/run",
    "bench/scoring",
    "bfcl",
    "config",
    "export",
    "mcp",
    "mock-servers",
    "mock-servers/ollama",
    "models",
    "report",
    "serve",
  ],
  // the registry lists every server and passes the fault settings (src/mcp/faults.ts) through
  "mock-servers": [ANY_SERVER, "mcp"],
  // a tool's error codes and the fault settings are the client's own table (src/mcp/retry.ts, faults.ts)
  "mock-servers/kit": ["mcp"],
  [ANY_SERVER]: ["mock-servers/kit"],
  "mock-servers/builtin": ["mock-servers/kit", "mock-servers/lab"],
  // a fake Ollama HTTP endpoint (not an MCP server): it answers with the simulated models
  "mock-servers/ollama": ["models"],
};

/** The table's row for a unit: its own, or the generic server row; undefined for a unit the table lacks. */
function allowedFor(unit: string): readonly string[] | undefined {
  return ALLOWED[unit] ?? (unit.startsWith("mock-servers/") ? ALLOWED[ANY_SERVER] : undefined);
}

function allows(from: string, to: string): boolean {
  return (allowedFor(from) ?? []).some(
    (edge) => edge === to || (edge === ANY_SERVER && to.startsWith("mock-servers/")),
  );
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
      return to === undefined || to === from ? [] : [{ from, to, file: relative(repoRoot, file), specifier }];
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
    expect(unitOf(`${srcRoot}/agent/skills/github.ts`)).toBe("agent");
    expect(unitOf(`${srcRoot}/bench/scoring/testing/fixtures.ts`)).toBe("bench/scoring");
    expect(unitOf(`${srcRoot}/errors.ts`)).toBeUndefined();
    expect(unitOf(join(mockRoot, "index.ts"))).toBe("mock-servers");
    expect(unitOf(join(mockRoot, "github/tools/issues.ts"))).toBe("mock-servers/github");
    expect(unitOf(join(repoRoot, "scripts/x.ts"))).toBeUndefined();
  });

  it("the table keeps DESIGN §11's two rules and reads a new server folder as a server", () => {
    const benchUnits = Object.keys(ALLOWED).filter((unit) => unit.startsWith("bench/"));
    expect(benchUnits.length).toBeGreaterThan(3);
    expect(benchUnits.filter((unit) => allows("agent", unit))).toEqual([]);
    expect(allows("bench/scoring", "agent")).toBe(false);
    expect(allows("mock-servers/weather", "mock-servers/kit")).toBe(true);
    expect(allows("mock-servers/weather", "models")).toBe(false);
    expect(allows("mock-servers", "mock-servers/weather")).toBe(true);
  });

  const files = [...sourceFiles(srcRoot), ...sourceFiles(mockRoot)];

  it("the shared base files directly under src/ import no folder of src/", () => {
    const base = files.filter((file) => unitOf(file) === undefined && file !== LIBRARY_ENTRY);
    expect(base.length).toBeGreaterThan(3);
    const upward = base.flatMap((file) =>
      localImports(file)
        .filter(({ target }) => unitOf(target) !== undefined)
        .map(({ specifier }) => `${relative(repoRoot, file)} imports ${specifier}`),
    );
    expect(upward).toEqual([]);
  });

  const imports = crossImports(files);

  it("no file of src/ imports the library entry (src/index.ts)", () => {
    const importers = files.filter((file) => localImports(file).some(({ target }) => target === LIBRARY_ENTRY));
    expect(importers.map((file) => relative(srcRoot, file))).toEqual([]);
  });

  it("the folders import each other without a cycle", () => {
    expect(new Set(imports.map(({ from }) => from)).size).toBeGreaterThan(8);
    expect(describeCycles(imports)).toEqual([]);
  });

  it("every import from one folder to another is an edge of the table", () => {
    const forbidden = imports
      .filter(({ from, to }) => !allows(from, to))
      .map(({ from, to, file, specifier }) =>
        allowedFor(from) === undefined
          ? `${file} imports ${specifier}: the folder ${from} has no row in the table`
          : `${file} imports ${specifier}: ${from} → ${to} is not an allowed edge`,
      );
    expect([...new Set(forbidden)].sort()).toEqual([]);
  });

  it("the table has no row for a folder that is gone", () => {
    const units = new Set(files.map(unitOf));
    expect(Object.keys(ALLOWED).filter((unit) => unit !== ANY_SERVER && !units.has(unit))).toEqual([]);
  });
});
