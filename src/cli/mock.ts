import type { Command } from "commander";
import { mockServerFactories } from "../../mock-servers/index.ts";
import type { RegistryShape } from "../mcp/client-config.ts";
import { ClientPool } from "../mcp/pool.ts";
import { isReadOnlyTool, loadRegistries, type RegistryEntry } from "../mcp/registry.ts";
import { resetKind } from "../mcp/registry-entry.ts";
import type { JsonSchema } from "../tool-protocol/types.ts";
import { parseTransport, REGISTRY_FLAG, repeated } from "./flags.ts";
import { cliTable } from "./table.ts";

/** One connected server as the harness understood its registry entry, and the tools it listed. */
export interface ServerListing {
  server: string;
  transport: RegistryEntry["transport"];
  reset: ReturnType<typeof resetKind>;
  purpose: string;
  /** Where the purpose came from: the registry entry, or the server's own handshake. */
  purposeFrom: "registry" | "instructions" | "serverInfo";
  tools: {
    name: string;
    description: string;
    inputSchema: JsonSchema;
    outputSchema?: JsonSchema;
    hasOutputSchema: boolean;
    readOnly: boolean;
  }[];
}

const SHAPES: Record<RegistryShape, string> = {
  registry: "this project's registry",
  mcpServers: 'a client config ("mcpServers": Claude Desktop, Cursor, Windsurf, Claude Code)',
  vscode: 'a VS Code config ("servers")',
};

/** Connects every registry server (stdio by default) and lists what an agent would see. */
export async function listServers(
  transport: "stdio" | "memory",
  registryFiles: readonly string[] = [],
): Promise<{ listing: ServerListing[]; read: string }> {
  const registry = loadRegistries(registryFiles);
  const pool = await ClientPool.open(registry, { transport, mocks: mockServerFactories });
  try {
    const tools = pool.listTools();
    const listing = pool.serverNames().map((server) => {
      const entry = registry.servers.find((candidate) => candidate.name === server)!;
      const { purpose, from } = pool.purposeOf(server);
      return {
        server,
        transport: entry.transport,
        reset: resetKind(entry),
        purpose,
        purposeFrom: from,
        tools: tools
          .filter((tool) => tool.server === server)
          .map((tool) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
            hasOutputSchema: tool.outputSchema !== undefined,
            readOnly: isReadOnlyTool(entry, tool),
          })),
      };
    });
    return { listing, read: `${registry.file}, read as ${SHAPES[registry.shape ?? "registry"]}` };
  } finally {
    await pool.close();
  }
}

const PURPOSE_FROM = { registry: "", instructions: " (from its instructions)", serverInfo: " (from its name)" };

export function registerMockCommands(program: Command): void {
  const mock = program.command("mock").description("the mock MCP servers");
  mock
    .command("list")
    .description("connect to every server in the registry and list what was understood and its tools")
    .option("--json", "print JSON for machines: each server, its tools with descriptions and input schemas")
    .option("--transport <kind>", "stdio | memory", "stdio")
    .option(REGISTRY_FLAG.flags, REGISTRY_FLAG.description, repeated)
    .action(async (options: { json?: boolean; transport: string; registry?: string[] }) => {
      const transport = parseTransport(options.transport);
      const { listing, read } = await listServers(transport, options.registry);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(listing)}\n`);
        return;
      }
      const table = cliTable({ head: ["server", "transport", "reset", "tools", "read-only", "output schema"] });
      for (const entry of listing) {
        const readOnly = entry.tools.filter((tool) => tool.readOnly).length;
        const withSchema = entry.tools.filter((tool) => tool.hasOutputSchema).length;
        table.push([entry.server, entry.transport, entry.reset, entry.tools.length, readOnly, withSchema]);
      }
      const purposes = listing.map((entry) => `${entry.server}: ${entry.purpose}${PURPOSE_FROM[entry.purposeFrom]}`);
      const total = listing.reduce((sum, entry) => sum + entry.tools.length, 0);
      process.stdout.write(
        `${read}\n${table.toString()}\n${purposes.join("\n")}\n` +
          `${listing.length} servers, ${total} tools (${transport}); --json lists each tool's parameters\n`,
      );
    });
}
