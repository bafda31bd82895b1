/**
 * The client pool resets a user's stdio server between tasks as its registry entry says: `restart` (a new
 * process: what it kept in memory is gone), `fixture` (a new process in a new copy of its folder; the copies
 * are removed), `none` (nothing), and a server no call reached is left alone.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ClientPool } from "../../src/mcp/pool.ts";
import { parseRegistry, type Registry, type RegistryEntry } from "../../src/mcp/registry.ts";
import { REPO_ROOT } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-resets-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SDK = join(REPO_ROOT, "node_modules/@modelcontextprotocol/sdk/dist/esm/server");
// counts in memory, and appends each call to `calls.txt` in its working folder
const SERVER = join(root, "counter.mjs");
writeFileSync(
  SERVER,
  [
    `import { McpServer } from "${SDK}/mcp.js";`,
    `import { StdioServerTransport } from "${SDK}/stdio.js";`,
    `import { appendFileSync, readFileSync } from "node:fs";`,
    "let count = 0;",
    'const server = new McpServer({ name: "counter", version: "1.0.0" });',
    'server.registerTool("bump", { description: "count one more", annotations: { readOnlyHint: false } }, async () => {',
    "  count += 1;",
    '  appendFileSync("calls.txt", "x");',
    '  const text = count + " in memory, " + readFileSync("calls.txt", "utf8").length + " on disk in " + process.cwd();',
    '  return { content: [{ type: "text", text }] };',
    "});",
    "await server.connect(new StdioServerTransport());",
  ].join("\n"),
);
mkdirSync(join(root, "data"));

async function withPool(entry: Partial<RegistryEntry>, body: (pool: ClientPool) => Promise<void>): Promise<void> {
  const raw = { name: "mine", purpose: "a counter", transport: "stdio", command: "node", args: [SERVER], ...entry };
  const registry: Registry = {
    file: "r.json",
    baseDir: root,
    servers: parseRegistry({ servers: [raw] }, "r.json", root),
  };
  const pool = await ClientPool.open(registry, { transport: "stdio" });
  try {
    await body(pool);
  } finally {
    await pool.close();
  }
}

const bump = async (pool: ClientPool) => (await pool.callTool("bump", {})).text;

describe("resets of a user's server between tasks", () => {
  it("restart: a new process, so what it kept in memory is gone (what it wrote to disk is not)", async () => {
    await withPool({ cwd: "data" }, async (pool) => {
      expect(await bump(pool)).toMatch(/^1 in memory, 1 on disk/);
      const pid = pool.childPids()[0];
      expect(await pool.resetTouched()).toEqual({ mine: "restart" });
      expect(pool.childPids()[0]).not.toBe(pid);
      expect(await bump(pool)).toMatch(/^1 in memory, 2 on disk/);
      // no call since: nothing to reset
      await pool.resetTouched();
      expect(await pool.resetTouched()).toEqual({});
    });
  });

  it("fixture: a new process in a new copy of the folder each time; the folder itself is never written", async () => {
    writeFileSync(join(root, "data", "calls.txt"), "");
    const copies: string[] = [];
    await withPool({ reset: "fixture", fixture_dir: "data" }, async (pool) => {
      for (const round of [1, 2]) {
        const text = await bump(pool);
        expect(text).toMatch(/^1 in memory, 1 on disk in /);
        copies.push(text.split(" in ").at(-1)!);
        expect(await pool.resetTouched()).toEqual({ mine: "fixture" });
        expect(existsSync(copies[round - 1]!)).toBe(false);
      }
    });
    expect(copies[0]).not.toBe(copies[1]);
    expect(readFileSync(join(root, "data", "calls.txt"), "utf8")).toBe("");
  });

  it("none: the same process keeps its state", async () => {
    await withPool({ reset: "none", cwd: "data" }, async (pool) => {
      await bump(pool);
      expect(await pool.resetTouched()).toEqual({});
      expect(await bump(pool)).toMatch(/^2 in memory/);
    });
  });
});
