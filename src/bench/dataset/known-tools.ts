/**
 * A run's dataset checked against the servers it will connect, before anything connects: every item's
 * servers are in the registry, and every gold call names a tool one of the registry's servers lists. A
 * gold call to a tool no server has can never be matched, so every model would be scored wrong on it.
 * A suite that connects only some servers must connect every server its items need.
 * (`dataset check` does the full cross-check against the connected servers' schemas: crosscheck.ts.)
 */
import type { Registry } from "../../mcp/registry.ts";
import { DatasetError, type DatasetProblem } from "./errors.ts";
import { checkServer } from "./state-checks.ts";
import type { Suite } from "./suite.ts";
import type { DatasetItem, LoadedItem } from "./types.ts";

export function unknownToolProblems(items: readonly LoadedItem[], registry: Registry): DatasetProblem[] {
  const declared = new Map(registry.servers.map((server) => [server.name, server.tools]));
  const known = new Set(registry.servers.flatMap((server) => server.tools ?? []));
  const problems: DatasetProblem[] = [];
  // an unknown server is said once, at its first item: a dataset of one's own servers run without its
  // registry would otherwise repeat it on every line
  const unknown = new Map<string, { first: LoadedItem; items: number }>();
  for (const loaded of items) {
    const { item, file, line } = loaded;
    const report = (message: string) => problems.push({ file, line, id: item.id, message });
    const unknownServers = [...new Set([...item.servers, ...(item.state ?? []).map(checkServer)])].filter(
      (server) => !declared.has(server),
    );
    for (const server of unknownServers) {
      const seen = unknown.get(server);
      if (seen) seen.items += 1;
      else unknown.set(server, { first: loaded, items: 1 });
    }
    // a server that does not list its tools (a user's own) is known only once connected
    if (unknownServers.length > 0 || item.servers.some((server) => declared.get(server) === undefined)) continue;
    item.calls.forEach((call, index) => {
      if (!known.has(call.tool)) {
        report(`calls[${index}] ${call.tool}: unknown tool (no server in ${registry.file} lists it)`);
      }
    });
  }
  const servers = [...declared.keys()].join(", ");
  for (const [server, { first, items: count }] of unknown) {
    problems.push({
      file: first.file,
      line: first.line,
      id: first.item.id,
      message:
        `servers: unknown server "${server}" (${count === 1 ? "this item" : `${count} items, this the first`}; ` +
        `${registry.file} has: ${servers}): give the registry that declares it with --registry FILE`,
    });
  }
  return problems;
}

/**
 * The suite's servers are in the registry, and every item's servers and state checks are among the
 * servers the run connects: a query that needs a server that is not there would only blame the model.
 */
export function requireSuiteServers(suite: Suite, items: readonly DatasetItem[], registry: Registry): void {
  const known = new Set(registry.servers.map((server) => server.name));
  const where = suite.files.join(", ");
  const problems: DatasetProblem[] = (suite.servers ?? [])
    .filter((server) => !known.has(server))
    .map((server) => ({
      file: where,
      line: 0,
      message: `servers: "${server}" is not a server of ${registry.file} (it has: ${[...known].join(", ")})`,
    }));
  const connected = new Set(suite.servers ?? known);
  for (const item of items) {
    const needed = [...item.servers, ...(item.state ?? []).map(checkServer)];
    for (const server of new Set(needed)) {
      if (!connected.has(server)) {
        problems.push({
          file: where,
          line: 0,
          id: item.id,
          message: `the item needs server "${server}", which the suite does not connect (servers: ${[...connected].join(", ")})`,
        });
      }
    }
  }
  if (problems.length > 0) throw new DatasetError("DATASET_UNKNOWN_SERVER", problems);
}
