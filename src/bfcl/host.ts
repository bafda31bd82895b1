/**
 * A ToolHost for one BFCL item: its own in-process MCP server (server.ts) behind the project's client
 * pool over InMemoryTransport, so calls get the same output validation and error classification as
 * every other server. Open one per item and close it after.
 */
import type { DatasetItem } from "../bench/dataset/types.ts";
import type { InProcessServer } from "../mcp/connection.ts";
import { ClientPool } from "../mcp/pool.ts";
import type { Registry } from "../mcp/registry.ts";
import { REPO_ROOT } from "../paths.ts";
import type { ToolHost } from "../tool-protocol/types.ts";
import { type BfclDataOptions, questionOfItem } from "./dataset.ts";
import { BFCL_SERVER } from "./import.ts";
import { createBfclServer } from "./server.ts";
import type { BfclFunctionDoc } from "./types.ts";

export type BfclHost = ToolHost & { close(): Promise<void> };

/** The pool needs a registry; this one names the in-process server only (it is never spawned). */
const BFCL_REGISTRY: Registry = {
  file: "(bfcl, in-process)",
  baseDir: REPO_ROOT,
  servers: [
    {
      name: BFCL_SERVER,
      purpose: "the function docs of one BFCL question, validated and echoed; or a multi-turn entry's environments",
      transport: "stdio",
      command: "(in-process only)",
    },
  ],
};

/** A host serving `functions`; `source` (a question id) names them in errors. */
export async function openFunctionsHost(functions: readonly BfclFunctionDoc[], source: string): Promise<BfclHost> {
  return openServerHost(() => createBfclServer(functions, source));
}

/** A host of one in-process server of BFCL's (a question's functions, a multi-turn entry's environments). */
export async function openServerHost(create: () => InProcessServer): Promise<BfclHost> {
  return ClientPool.open(BFCL_REGISTRY, {
    transport: "memory",
    inProcess: { [BFCL_SERVER]: create },
    // Neither an echo nor an environment fails transiently: a retry would only hide a bug (or run a call twice).
    retryDelaysMs: [],
  });
}

export async function openBfclHost(item: DatasetItem, options: BfclDataOptions = {}): Promise<BfclHost> {
  return openFunctionsHost(questionOfItem(item, options).function, item.id);
}
