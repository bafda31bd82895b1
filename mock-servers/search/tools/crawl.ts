import type { JsonSchema, ToolSpec } from "../../kit/types.ts";
import { faviconOf, type SearchState } from "../corpus.ts";
import { type PageFormat, renderPage } from "../page-format.ts";
import { requestIdFor, responseTime } from "../request-meta.ts";
import { type CrawlOptions, crawlSite } from "../site-graph.ts";

interface CrawlArgs extends CrawlOptions {
  url: string;
  extract_depth?: "basic" | "advanced";
  format?: PageFormat;
  include_favicon?: boolean;
}

const regexList = (description: string) => ({ type: "array", items: { type: "string" }, description, default: [] });

/** Parameters tavily_crawl and tavily_map share (0.2.19); only descriptions differ between the two tools. */
function traversalProperties(noun: "crawl" | "mapping"): Record<string, JsonSchema> {
  return {
    url: { type: "string", description: `The root URL to begin the ${noun}` },
    max_depth: {
      type: "integer",
      description:
        noun === "crawl"
          ? "Max depth of the crawl. Defines how far from the base URL the crawler can explore."
          : "Max depth of the mapping. Defines how far from the base URL the crawler can explore",
      default: 1,
      minimum: 1,
    },
    max_breadth: {
      type: "integer",
      description: "Max number of links to follow per level of the tree (i.e., per page)",
      default: 20,
      minimum: 1,
    },
    limit: {
      type: "integer",
      description: "Total number of links the crawler will process before stopping",
      default: 50,
      minimum: 1,
    },
    instructions: {
      type: "string",
      description:
        noun === "crawl"
          ? "Natural language instructions for the crawler. Instructions specify which types of pages the crawler should return."
          : "Natural language instructions for the crawler",
    },
    select_paths: regexList(
      "Regex patterns to select only URLs with specific path patterns (e.g., /docs/.*, /api/v1.*)",
    ),
    select_domains: regexList(
      "Regex patterns to restrict crawling to specific domains or subdomains (e.g., ^docs\\.example\\.com$)",
    ),
    allow_external: {
      type: "boolean",
      description: "Whether to return external links in the final response",
      default: true,
    },
  };
}

const baseOutput = {
  base_url: { type: "string" },
  response_time: { type: "number" },
  request_id: { type: "string" },
};

export const crawlTool: ToolSpec<SearchState> = {
  name: "tavily_crawl",
  description: "Crawl a website starting from a URL. Extracts content from pages with configurable depth and breadth.",
  inputSchema: {
    type: "object",
    properties: {
      ...traversalProperties("crawl"),
      extract_depth: {
        type: "string",
        enum: ["basic", "advanced"],
        description:
          "Advanced extraction retrieves more data, including tables and embedded content, with higher success but may increase latency",
        default: "basic",
      },
      format: {
        type: "string",
        enum: ["markdown", "text"],
        description:
          "The format of the extracted web page content. markdown returns content in markdown format. text returns plain text and may increase latency.",
        default: "markdown",
      },
      include_favicon: {
        type: "boolean",
        description: "Whether to include the favicon URL for each result",
        default: false,
      },
    },
    required: ["url"],
  },
  outputSchema: {
    type: "object",
    properties: {
      ...baseOutput,
      results: {
        type: "array",
        items: {
          type: "object",
          properties: { url: { type: "string" }, raw_content: { type: "string" }, favicon: { type: "string" } },
          required: ["url", "raw_content"],
        },
      },
    },
    required: ["base_url", "results", "response_time"],
  },
  annotations: { title: "Tavily Crawl", readOnlyHint: true, openWorldHint: true },
  handler: (rawArgs, { state }) => {
    const args = rawArgs as unknown as CrawlArgs;
    const { baseUrl, pages } = crawlSite(state.documents, args.url, args);
    return {
      base_url: baseUrl,
      results: pages.map((doc) => ({
        url: doc.url,
        raw_content: renderPage(doc, args.format ?? "markdown"),
        ...(args.include_favicon ? { favicon: faviconOf(doc) } : {}),
      })),
      response_time: responseTime(1.1 + 0.35 * pages.length),
      request_id: requestIdFor("tavily_crawl", rawArgs),
    };
  },
};

export const mapTool: ToolSpec<SearchState> = {
  name: "tavily_map",
  description: "Map a website's structure. Returns a list of URLs found starting from the base URL.",
  inputSchema: { type: "object", properties: traversalProperties("mapping"), required: ["url"] },
  outputSchema: {
    type: "object",
    properties: { ...baseOutput, results: { type: "array", items: { type: "string" } } },
    required: ["base_url", "results", "response_time"],
  },
  annotations: { title: "Tavily Map", readOnlyHint: true, openWorldHint: true },
  handler: (rawArgs, { state }) => {
    const args = rawArgs as unknown as CrawlOptions & { url: string };
    const { baseUrl, pages } = crawlSite(state.documents, args.url, args);
    return {
      base_url: baseUrl,
      results: pages.map((doc) => doc.url),
      response_time: responseTime(0.6 + 0.1 * pages.length),
      request_id: requestIdFor("tavily_map", rawArgs),
    };
  },
};
