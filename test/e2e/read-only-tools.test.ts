import { describe, expect, it } from "vitest";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { goldArgs } from "../../src/gold-value.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistry } from "../../src/mcp/registry.ts";

/**
 * The pool resets a server between queries only after a write (a tool not annotated read-only), so a
 * read-only hint that lies would leak state from one query into the next. Every read-only call the
 * dataset makes must leave its server's state exactly as it found it.
 */
describe("read-only hints of the mock servers", () => {
  it("hold for every read-only gold call of the dataset", async () => {
    const pool = await ClientPool.open(loadRegistry(), { transport: "memory", mocks: mockServerFactories });
    try {
      const tools = new Map(pool.listTools().map((tool) => [tool.name, tool]));
      const liars = new Set<string>();
      let checked = 0;
      for (const { item } of loadDataset()) {
        await pool.resetTouched();
        for (const call of item.calls) {
          const tool = tools.get(call.tool)!;
          const args = goldArgs(call, tool.inputSchema);
          if (tool.annotations.readOnlyHint !== true) {
            await pool.callTool(call.tool, args);
            continue;
          }
          const before = JSON.stringify(await pool.control.dumpState(tool.server));
          await pool.callTool(call.tool, args);
          if (JSON.stringify(await pool.control.dumpState(tool.server)) !== before)
            liars.add(`${tool.server}.${tool.name}`);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(300);
      expect([...liars]).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
