import type { Command } from "commander";
import { mockServerFactories } from "../../mock-servers/index.ts";
import { ClientPool } from "../mcp/pool.ts";
import { isReadOnlyTool, loadRegistries } from "../mcp/registry.ts";
import { parseTransport, REGISTRY_FLAG, repeated } from "./flags.ts";
import { cliTable } from "./table.ts";

export interface ServerListing {
  server: string;
  tools: { name: string; hasOutputSchema: boolean; readOnly: boolean }[];
}

/** Connects every registry server (stdio by default) and lists what an agent would see. */
export async function listServers(
  transport: "stdio" | "memory",
  registryFiles: readonly string[] = [],
): Promise<ServerListing[]> {
  const registry = loadRegistries(registryFiles);
  const pool = await ClientPool.open(registry, { transport, mocks: mockServerFactories });
  try {
    const tools = pool.listTools();
    return pool.serverNames().map((server) => ({
      server,
      tools: tools
        .filter((tool) => tool.server === server)
        .map((tool) => ({
          name: tool.name,
          hasOutputSchema: tool.outputSchema !== undefined,
          readOnly: isReadOnlyTool(registry.servers.find((entry) => entry.name === server)!, tool),
        })),
    }));
  } finally {
    await pool.close();
  }
}

export function registerMockCommands(program: Command): void {
  const mock = program.command("mock").description("the mock MCP servers");
  mock
    .command("list")
    .description("connect to every server in the registry and list its tools")
    .option("--json", "print JSON for machines")
    .option("--transport <kind>", "stdio | memory", "stdio")
    .option(REGISTRY_FLAG.flags, REGISTRY_FLAG.description, repeated)
    .action(async (options: { json?: boolean; transport: string; registry?: string[] }) => {
      const transport = parseTransport(options.transport);
      const listing = await listServers(transport, options.registry);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(listing)}\n`);
        return;
      }
      const table = cliTable({ head: ["server", "tools", "read-only", "with output schema"] });
      for (const entry of listing) {
        const readOnly = entry.tools.filter((tool) => tool.readOnly).length;
        const withSchema = entry.tools.filter((tool) => tool.hasOutputSchema).length;
        table.push([entry.server, entry.tools.length, readOnly, withSchema]);
      }
      const total = listing.reduce((sum, entry) => sum + entry.tools.length, 0);
      process.stdout.write(`${table.toString()}\n${listing.length} servers, ${total} tools (${transport})\n`);
    });
}
