import type { ToolSpec } from "../../kit/types.ts";
import { faviconOf, type SearchState } from "../corpus.ts";
import { searchCorpus } from "../engine.ts";
import { dateWindow, type TimeRange } from "../filters.ts";
import { markdownOf } from "../page-format.ts";
import { bestSentence, CHUNKS_PER_SOURCE, snippetFor } from "../passages.ts";
import { indexOf, relevanceScore } from "../ranking.ts";
import { requestIdFor, responseTime } from "../request-meta.ts";

type SearchDepth = "basic" | "advanced" | "fast" | "ultra-fast";

const DEPTH_SECONDS: Record<SearchDepth, number> = { basic: 0.92, advanced: 1.87, fast: 0.51, "ultra-fast": 0.34 };

interface SearchArgs {
  query: string;
  search_depth?: SearchDepth;
  time_range?: TimeRange;
  start_date?: string;
  end_date?: string;
  max_results?: number;
  include_images?: boolean;
  include_image_descriptions?: boolean;
  include_raw_content?: boolean;
  include_domains?: string[];
  exclude_domains?: string[];
  include_favicon?: boolean;
  exact_match?: boolean;
  /** Not in tavily-mcp's schema (it never forwards it); honoured when an agent passes it anyway. */
  include_answer?: boolean | "basic" | "advanced";
}

const stringList = (description: string) => ({ type: "array", items: { type: "string" }, description, default: [] });

/** tavily_search, parameters exactly as tavily-mcp 0.2.19 lists them. */
export const searchTool: ToolSpec<SearchState> = {
  name: "tavily_search",
  description:
    "Search the web for current information on any topic. Use for news, facts, or data beyond your knowledge cutoff. Returns snippets and source URLs.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Search query" },
      search_depth: {
        type: "string",
        enum: ["basic", "advanced", "fast", "ultra-fast"],
        description:
          "The depth of the search. 'basic' for generic results, 'advanced' for more thorough search, 'fast' for optimized low latency with high relevance, 'ultra-fast' for prioritizing latency above all else",
        default: "basic",
      },
      topic: {
        type: "string",
        enum: ["general"],
        description: "The category of the search. This will determine which of our agents will be used for the search",
        default: "general",
      },
      time_range: {
        type: "string",
        description: "The time range back from the current date to include in the search results",
        enum: ["day", "week", "month", "year"],
      },
      start_date: {
        type: "string",
        description:
          "Will return all results after the specified start date. Required to be written in the format YYYY-MM-DD.",
        default: "",
      },
      end_date: {
        type: "string",
        description:
          "Will return all results before the specified end date. Required to be written in the format YYYY-MM-DD",
        default: "",
      },
      max_results: {
        type: "number",
        description: "The maximum number of search results to return",
        default: 5,
        minimum: 5,
        maximum: 20,
      },
      include_images: {
        type: "boolean",
        description: "Include a list of query-related images in the response",
        default: false,
      },
      include_image_descriptions: {
        type: "boolean",
        description: "Include a list of query-related images and their descriptions in the response",
        default: false,
      },
      include_raw_content: {
        type: "boolean",
        description: "Include the cleaned and parsed HTML content of each search result",
        default: false,
      },
      include_domains: stringList(
        "A list of domains to specifically include in the search results, if the user asks to search on specific sites set this to the domain of the site",
      ),
      exclude_domains: stringList(
        "List of domains to specifically exclude, if the user asks to exclude a domain set this to the domain of the site",
      ),
      country: {
        type: "string",
        description:
          "Boost search results from a specific country. This will prioritize content from the selected country in the search results. Available only if topic is general.",
        default: "",
      },
      include_favicon: {
        type: "boolean",
        description: "Whether to include the favicon URL for each result",
        default: false,
      },
      exact_match: {
        type: "boolean",
        description: "Only return results containing the exact phrase(s) in quotes in your query",
      },
    },
    required: ["query"],
  },
  outputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      follow_up_questions: { type: "null" },
      answer: { type: ["string", "null"] },
      images: {
        type: "array",
        items: {
          anyOf: [
            { type: "string" },
            {
              type: "object",
              properties: { url: { type: "string" }, description: { type: "string" } },
              required: ["url", "description"],
            },
          ],
        },
      },
      results: {
        type: "array",
        items: {
          type: "object",
          properties: {
            title: { type: "string" },
            url: { type: "string" },
            content: { type: "string" },
            score: { type: "number" },
            published_date: { type: "string" },
            raw_content: { type: "string" },
            favicon: { type: "string" },
          },
          required: ["title", "url", "content", "score"],
        },
      },
      response_time: { type: "number" },
      request_id: { type: "string" },
    },
    required: ["query", "results", "images", "response_time"],
  },
  annotations: { title: "Tavily Web Search", readOnlyHint: true, openWorldHint: true },
  handler: (rawArgs, { state, now }) => {
    const args = rawArgs as unknown as SearchArgs;
    const depth = args.search_depth ?? "basic";
    const window = dateWindow(now, args);
    const index = indexOf(state.documents);
    const hits = searchCorpus(state.documents, args.query, {
      window,
      includeDomains: args.include_domains,
      excludeDomains: args.exclude_domains,
      exactMatch: args.exact_match,
    }).slice(0, Math.floor(args.max_results ?? 5));

    const chunks = depth === "advanced" ? CHUNKS_PER_SOURCE : 1;
    const results = hits.map(({ doc, bm25 }) => ({
      title: doc.title,
      url: doc.url,
      content: snippetFor(doc, args.query, index, chunks),
      score: relevanceScore(bm25),
      published_date: doc.published_date,
      ...(args.include_raw_content ? { raw_content: markdownOf(doc) } : {}),
      ...(args.include_favicon ? { favicon: faviconOf(doc) } : {}),
    }));

    const wantsImages = args.include_images || args.include_image_descriptions;
    const images = wantsImages
      ? hits
          .flatMap(({ doc }) => doc.images)
          .map((image) => (args.include_image_descriptions ? { ...image } : image.url))
      : [];
    const top = hits[0];
    const answer = args.include_answer && top ? bestSentence(top.doc, args.query, index) : null;

    return {
      query: args.query,
      follow_up_questions: null,
      answer,
      images,
      results,
      response_time: responseTime(DEPTH_SECONDS[depth]),
      request_id: requestIdFor("tavily_search", rawArgs),
    };
  },
};
