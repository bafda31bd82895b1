import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { faviconOf, findDocument, parseUrl, type SearchState } from "../corpus.ts";
import { type PageFormat, plainText, renderPage } from "../page-format.ts";
import { CHUNKS_PER_SOURCE, relevantChunks } from "../passages.ts";
import { indexOf } from "../ranking.ts";
import { requestIdFor, responseTime } from "../request-meta.ts";

/** The Tavily Extract API refuses more URLs than this in one request. */
const MAX_URLS = 20;

interface ExtractArgs {
  urls: string[];
  extract_depth?: "basic" | "advanced";
  include_images?: boolean;
  format?: PageFormat;
  include_favicon?: boolean;
  query?: string;
}

/** tavily_extract, parameters as tavily-mcp 0.2.19 lists them. Unknown URLs land in failed_results. */
export const extractTool: ToolSpec<SearchState> = {
  name: "tavily_extract",
  description: "Extract content from URLs. Returns raw page content in markdown or text format.",
  inputSchema: {
    type: "object",
    properties: {
      urls: { type: "array", items: { type: "string" }, description: "List of URLs to extract content from" },
      extract_depth: {
        type: "string",
        enum: ["basic", "advanced"],
        description: "Use 'advanced' for LinkedIn, protected sites, or tables/embedded content",
        default: "basic",
      },
      include_images: { type: "boolean", description: "Include images from pages", default: false },
      format: { type: "string", enum: ["markdown", "text"], description: "Output format", default: "markdown" },
      include_favicon: { type: "boolean", description: "Include favicon URLs", default: false },
      query: { type: "string", description: "Query to rerank content chunks by relevance" },
    },
    required: ["urls"],
  },
  outputSchema: {
    type: "object",
    properties: {
      results: {
        type: "array",
        items: {
          type: "object",
          properties: {
            url: { type: "string" },
            title: { type: "string" },
            raw_content: { type: "string" },
            images: { type: "array", items: { type: "string" } },
            favicon: { type: "string" },
          },
          required: ["url", "raw_content"],
        },
      },
      failed_results: {
        type: "array",
        items: {
          type: "object",
          properties: { url: { type: "string" }, error: { type: "string" } },
          required: ["url", "error"],
        },
      },
      response_time: { type: "number" },
      request_id: { type: "string" },
    },
    required: ["results", "failed_results", "response_time"],
  },
  annotations: { title: "Tavily Extract", readOnlyHint: true, openWorldHint: true },
  handler: (rawArgs, { state }) => {
    const args = rawArgs as unknown as ExtractArgs;
    if (args.urls.length === 0) throw new ToolError("invalid_request", "Tavily API error: No URLs provided");
    if (args.urls.length > MAX_URLS) {
      throw new ToolError(
        "invalid_request",
        `Tavily API error: Max ${MAX_URLS} URLs are allowed, got ${args.urls.length}`,
      );
    }
    const format = args.format ?? "markdown";
    const index = indexOf(state.documents);
    const results: Record<string, unknown>[] = [];
    const failed: { url: string; error: string }[] = [];
    for (const url of args.urls) {
      const doc = findDocument(state.documents, url);
      if (!doc) {
        failed.push({ url, error: parseUrl(url) ? "Failed to fetch url" : "Invalid URL" });
        continue;
      }
      // With a query, Tavily returns the most relevant chunks instead of the whole page.
      const content = args.query
        ? relevantChunks(doc, args.query, index, CHUNKS_PER_SOURCE)
            .map((chunk) => (format === "text" ? plainText(chunk) : chunk))
            .join(" [...] ")
        : renderPage(doc, format);
      results.push({
        url,
        title: doc.title,
        raw_content: content,
        ...(args.include_images ? { images: doc.images.map((image) => image.url) } : {}),
        ...(args.include_favicon ? { favicon: faviconOf(doc) } : {}),
      });
    }
    const perUrl = args.extract_depth === "advanced" ? 0.65 : 0.32;
    return {
      results,
      failed_results: failed,
      response_time: responseTime(0.2 + perUrl * args.urls.length),
      request_id: requestIdFor("tavily_extract", rawArgs),
    };
  },
};
