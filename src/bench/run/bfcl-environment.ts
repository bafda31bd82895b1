/**
 * The tool side of a BFCL run (`--dataset bfcl:simple`): every question has its own function set (names
 * repeat across questions with other docs), so each query gets its own in-process MCP server built from
 * its function docs, opened for it and closed after. Nothing to reset, no end state to check.
 */

import { type BfclDataOptions, questionOfItem } from "../../bfcl/dataset.ts";
import { openBfclHost } from "../../bfcl/host.ts";
import { BFCL_SERVER, bfclFunctionToTool } from "../../bfcl/import.ts";
import type { ToolDefinition } from "../../tool-protocol/types.ts";
import type { DatasetItem } from "../dataset/types.ts";
import type { ItemSession, ToolEnvironment } from "./environment.ts";

/** `--dataset bfcl:…` (a BFCL spec) rather than dataset files. */
export function isBfclDataset(paths: readonly string[]): boolean {
  return paths.some((path) => path.startsWith("bfcl:"));
}

export class BfclEnvironment implements ToolEnvironment {
  private readonly definitionsOf = new Map<string, ToolDefinition[]>();

  constructor(private readonly options: BfclDataOptions = {}) {}

  /** The item's own functions as tool definitions (BFCL docs carry no annotations). */
  definitions(item?: DatasetItem): readonly ToolDefinition[] {
    if (!item) return [];
    let definitions = this.definitionsOf.get(item.id);
    if (!definitions) {
      definitions = questionOfItem(item, this.options).function.map((doc) => ({
        ...bfclFunctionToTool(doc),
        server: BFCL_SERVER,
        annotations: {},
      }));
      this.definitionsOf.set(item.id, definitions);
    }
    return definitions;
  }

  async open(item: DatasetItem): Promise<ItemSession> {
    const host = await openBfclHost(item, this.options);
    // a BFCL question's session is its own function set, whatever the exposure
    return { tools: host, servers: [BFCL_SERVER], runStateChecks: async () => [], release: () => host.close() };
  }

  async close(): Promise<void> {}
}
