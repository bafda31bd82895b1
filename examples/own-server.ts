/**
 * Example: run the agent against an MCP server of your own, in process.
 * The server is an McpServer from @modelcontextprotocol/sdk with one tool; ClientPool connects it over an
 * in-memory transport; a scripted model stands in for a real one (swap in `createProvider(...)`).
 * In your own project import from "onsetlab-bench" instead of "../src/index.ts".
 *
 *   pnpm exec tsx examples/own-server.ts
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  type AgentResult,
  ClientPool,
  type ModelProvider,
  type Registry,
  runAgent,
  ScriptedModel,
} from "../src/index.ts";

/** A tiny inventory service: how many of a product are in stock. */
function inventoryServer(): McpServer {
  const stock: Record<string, number> = { widget: 12, gadget: 0 };
  const server = new McpServer({ name: "inventory", version: "1.0.0" });
  server.registerTool(
    "get_stock",
    {
      description: "How many units of a product are in stock",
      inputSchema: { product: z.string().describe("product name, e.g. widget") },
      annotations: { readOnlyHint: true },
    },
    async ({ product }) => ({
      content: [{ type: "text", text: JSON.stringify({ product, units: stock[product] ?? 0 }) }],
    }),
  );
  return server;
}

/** A registry naming the server; with `transport: "memory"` the pool uses the factory instead of its command. */
const registry: Registry = {
  file: "(in memory)",
  baseDir: process.cwd(),
  servers: [{ name: "inventory", purpose: "stock levels", transport: "stdio", command: "unused" }],
};

/** The model: calls get_stock natively, then answers from the result. */
function scriptedModel(): ModelProvider {
  return new ScriptedModel(
    {
      native: [
        { toolCalls: [{ id: "1", name: "get_stock", arguments: { product: "widget" } }] },
        { text: "There are 12 widgets in stock." },
      ],
    },
    "scripted:inventory",
  );
}

export async function askInventory(query: string, model: ModelProvider = scriptedModel()): Promise<AgentResult> {
  const pool = await ClientPool.open(registry, { transport: "memory", inProcess: { inventory: inventoryServer } });
  try {
    return await runAgent(query, { model, tools: pool, config: { strategy: "native" } });
  } finally {
    await pool.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await askInventory("How many widgets do we have?");
  for (const call of result.toolCalls) console.log(`${call.tool}(${JSON.stringify(call.args)}) → ok=${call.ok}`);
  console.log(result.answer);
}
