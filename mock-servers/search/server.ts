import type { ServerSpec } from "../kit/types.ts";
import { searchChecks } from "./checks.ts";
import { createSearchState, type SearchState } from "./corpus.ts";
import { crawlTool, mapTool } from "./tools/crawl.ts";
import { extractTool } from "./tools/extract.ts";
import { researchTool } from "./tools/research.ts";
import { searchTool } from "./tools/search.ts";

/**
 * A Tavily-like search server over a fixed corpus (fixtures/corpus.json); never touches the network.
 * Tool surface mirrors tavily-mcp 0.2.19 (7bcf9075, 2026-04-24): five tools with underscore names.
 */
export const searchServer: ServerSpec<SearchState> = {
  name: "search",
  version: "0.2.19",
  purpose: "Web search, extraction, crawling and research in the style of the Tavily MCP server, over a fixed corpus.",
  createState: createSearchState,
  tools: [searchTool, extractTool, crawlTool, mapTool, researchTool],
  checks: searchChecks,
};
