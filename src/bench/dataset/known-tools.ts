/**
 * A run's dataset checked against the servers it will connect, before anything connects: every item's
 * servers are in the registry, and every gold call names a tool one of the registry's servers lists. A
 * gold call to a tool no server has can never be matched, so every model would be scored wrong on it.
 * (`dataset check` does the full cross-check against the connected servers' schemas: crosscheck.ts.)
 */
import type { Registry } from "../../mcp/registry.ts";
import type { DatasetProblem } from "./errors.ts";
import type { LoadedItem } from "./types.ts";

export function unknownToolProblems(items: readonly LoadedItem[], registry: Registry): DatasetProblem[] {
  const declared = new Map(registry.servers.map((server) => [server.name, server.tools]));
  const known = new Set(registry.servers.flatMap((server) => server.tools ?? []));
  const problems: DatasetProblem[] = [];
  for (const { item, file, line } of items) {
    const report = (message: string) => problems.push({ file, line, id: item.id, message });
    const unknownServers = item.servers.filter((server) => !declared.has(server));
    for (const server of unknownServers) {
      report(`servers: unknown server "${server}" (${registry.file} has: ${[...declared.keys()].join(", ")})`);
    }
    // a server that does not list its tools (a user's own) is known only once connected
    if (unknownServers.length > 0 || item.servers.some((server) => declared.get(server) === undefined)) continue;
    item.calls.forEach((call, index) => {
      if (!known.has(call.tool)) {
        report(`calls[${index}] ${call.tool}: unknown tool (no server in ${registry.file} lists it)`);
      }
    });
  }
  return problems;
}
