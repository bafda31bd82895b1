/**
 * `scaffold server NAME` in a copy of the repository (never the repository itself): the new server builds,
 * passes its own test, serves its tool over stdio and shows in `mock list`; bad targets are refused and
 * leave the tree as it was.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { ScaffoldError, scaffoldServer } from "../../src/cli/scaffold.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistry } from "../../src/mcp/registry.ts";
import { crossImports, Layering, readLayerTable, unlistedImports, violations } from "../../src/testing/layering.ts";
import { sourceFiles } from "../../src/testing/source-imports.ts";
import { REPO_ROOT } from "../support/bench-run.ts";

const run = promisify(execFile);
let root: string;

function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "onsetlab-scaffold-"));
  // docs/schemas: the agent-file reader loads its schema when the CLI starts
  for (const part of ["src", "mock-servers", "docs/schemas", "package.json", "tsconfig.json"]) {
    cpSync(join(REPO_ROOT, part), join(root, part), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "vitest.config.ts"), "export default {};\n");
});

describe("scaffold server", () => {
  it.each([
    ["Weather", "SCAFFOLD_BAD_NAME"],
    ["../outside", "SCAFFOLD_BAD_NAME"],
    ["a/b", "SCAFFOLD_BAD_NAME"],
    ["/tmp/x", "SCAFFOLD_BAD_NAME"],
    ["x".repeat(31), "SCAFFOLD_BAD_NAME"],
    ["kit", "SCAFFOLD_EXISTS"],
    ["lab", "SCAFFOLD_EXISTS"],
  ])("refuses %j (%s) and writes nothing", (name, code) => {
    const before = filesUnder(join(root, "mock-servers"));
    expect(() => scaffoldServer(name, root)).toThrow(ScaffoldError);
    try {
      scaffoldServer(name, root);
    } catch (error) {
      expect((error as ScaffoldError).code).toBe(code);
      expect((error as Error).message).not.toContain("\n");
    }
    expect(filesUnder(join(root, "mock-servers"))).toEqual(before);
  });

  it("writes a server that builds, passes its test, serves its tool and shows in mock list", async () => {
    const before = filesUnder(join(root, "mock-servers"));
    const { files } = scaffoldServer("weather-station", root);
    const after = filesUnder(join(root, "mock-servers"));
    const changed = [...after.keys()].filter((file) => before.get(file) !== after.get(file)).sort();
    expect(changed).toEqual(
      [
        "mock-servers/index.ts",
        "mock-servers/registry.json",
        ...files.map((file) => relative(root, file)).filter((file) => file.startsWith("mock-servers/weather-station/")),
      ].sort(),
    );
    expect(files).toHaveLength(6);
    // the new server keeps the layering: it imports the kit's files that the kit's entry lists
    const roots = { src: join(root, "src"), mocks: join(root, "mock-servers") };
    const server = sourceFiles(join(root, "mock-servers/weather-station"));
    const layering = new Layering(readLayerTable(join(REPO_ROOT, "docs/architecture.md")));
    expect(violations(crossImports(server, roots, root), layering)).toEqual([]);
    expect(unlistedImports(server, roots, root)).toEqual([]);
    // a second time: the folder exists
    expect(() => scaffoldServer("weather-station", root)).toThrow(/exists already/);

    const test = await run(
      process.execPath,
      [join(root, "node_modules/vitest/vitest.mjs"), "run", "mock-servers/weather-station"],
      { cwd: root, env: { ...process.env, CI: "true" } },
    );
    expect(test.stdout).toMatch(/3 passed/);

    await build({
      entryPoints: { "weather-station": join(root, "mock-servers/weather-station/main.ts") },
      outdir: join(root, "dist/mock-servers"),
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "warning",
    });
    const pool = await ClientPool.open(loadRegistry(join(root, "mock-servers/registry.json")), {
      transport: "stdio",
      servers: ["weather-station"],
    });
    try {
      expect(pool.listTools().map((tool) => tool.name)).toEqual(["weather_station_lookup"]);
      expect(await pool.callTool("weather_station_lookup", { key: "alpha" })).toMatchObject({
        ok: true,
        data: { key: "alpha", value: "the first record" },
      });
    } finally {
      await pool.close();
    }

    const list = await run(
      process.execPath,
      ["--import", "tsx", "src/cli/bin.ts", "mock", "list", "--transport", "memory", "--json"],
      { cwd: root },
    );
    const listed = JSON.parse(list.stdout) as { server: string; tools: { name: string }[] }[];
    expect(listed.find((entry) => entry.server === "weather-station")?.tools.map((tool) => tool.name)).toEqual([
      "weather_station_lookup",
    ]);
  });
});
