import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import type { SearchState } from "./corpus.ts";
import { searchServer } from "./server.ts";

interface SearchResult {
  title: string;
  url: string;
  content: string;
  score: number;
  published_date: string;
  raw_content?: string;
  favicon?: string;
}

let server: TestServer<SearchState>;
beforeAll(async () => {
  server = await openTestServer(searchServer);
});
afterAll(async () => {
  await server.close();
});

interface SearchResponse {
  answer: string | null;
  images: unknown[];
  results: SearchResult[];
}

async function search(args: Record<string, unknown>): Promise<SearchResponse> {
  return (await server.ok("tavily_search", args)) as unknown as SearchResponse;
}

const hostOf = (url: string) => new URL(url).hostname;

describe("search server: surface", () => {
  it("follows the kit's shape rules", () => {
    expect(specViolations(searchServer)).toEqual([]);
  });

  it("lists tavily-mcp 0.2.19's five tools with its parameter names", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "tavily_search",
      "tavily_extract",
      "tavily_crawl",
      "tavily_map",
      "tavily_research",
    ]);
    const params = Object.fromEntries(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]));
    expect(params.tavily_search).toEqual([
      "query",
      "search_depth",
      "topic",
      "time_range",
      "start_date",
      "end_date",
      "max_results",
      "include_images",
      "include_image_descriptions",
      "include_raw_content",
      "include_domains",
      "exclude_domains",
      "country",
      "include_favicon",
      "exact_match",
    ]);
    expect(params.tavily_extract).toEqual([
      "urls",
      "extract_depth",
      "include_images",
      "format",
      "include_favicon",
      "query",
    ]);
    expect(params.tavily_map).toEqual([
      "url",
      "max_depth",
      "max_breadth",
      "limit",
      "instructions",
      "select_paths",
      "select_domains",
      "allow_external",
    ]);
    expect(params.tavily_crawl).toEqual([...params.tavily_map!, "extract_depth", "format", "include_favicon"]);
    expect(params.tavily_research).toEqual(["input", "model"]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });
});

describe("tavily_search: ranking", () => {
  it.each([
    ["Qwen2.5 model sizes", "https://qwenlm.github.io/blog/qwen2.5/"],
    ["qwen 2.5 context length", "https://qwenlm.github.io/blog/qwen2.5/"],
    ["Llama 3.2 release date", "https://ai.meta.com/blog/llama-3-2-connect-2024-vision-edge-mobile-devices/"],
    ["capital of Australia", "https://en.wikipedia.org/wiki/Canberra"],
    ["acme rate limit", "https://docs.acme.dev/rate-limits"],
    ["acme series b", "https://acme.com/blog/acme-raises-series-b"],
    ["webhook signature verification", "https://docs.acme.dev/webhooks"],
    ["how to make banana bread", "https://www.simplyrecipes.com/recipes/banana_bread/"],
    ["compound interest formula", "https://www.investopedia.com/terms/c/compoundinterest.asp"],
    ["who won super bowl LIX", "https://www.nfl.com/news/super-bowl-lix-recap"],
    ["what is ReWOO", "https://arxiv.org/abs/2305.18323"],
    ["hurricane category 4 wind speed", "https://www.nhc.noaa.gov/aboutsshws.php"],
    ["Node.js 22 LTS", "https://nodejs.org/en/blog/release/v22.0.0"],
    ["El Nino", "https://www.noaa.gov/understanding-el-nino"],
  ])("%s → %s", async (query, expected) => {
    const { results } = await search({ query });
    expect(results[0]?.url).toBe(expected);
    const scores = results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((score) => score > 0 && score < 1)).toBe(true);
  });

  it("returns 5 results by default and honours max_results up to 20", async () => {
    expect((await search({ query: "acme" })).results).toHaveLength(5);
    expect((await search({ query: "acme", max_results: 12 })).results).toHaveLength(12);
  });

  it("rejects max_results below the schema minimum and a topic outside the enum, as the real schema does", async () => {
    expect(await server.call("tavily_search", { query: "acme", max_results: 3 })).toMatchObject({
      kind: "rpc_error",
      code: -32602,
    });
    const news = await server.call("tavily_search", { query: "acme", topic: "news" });
    expect(news.kind === "rpc_error" && news.message).toContain("must be one of general");
    expect(await server.call("tavily_search", {})).toMatchObject({ kind: "rpc_error", data: { missing: ["query"] } });
  });

  it("returns no results, not an error, for a query that matches nothing", async () => {
    expect((await search({ query: "xyzzy plugh" })).results).toEqual([]);
  });
});

describe("tavily_search: filters", () => {
  it("include_domains keeps only those sites and their subdomains, in any spelling", async () => {
    const { results } = await search({
      query: "acme api",
      include_domains: ["https://www.acme.com/"],
      max_results: 20,
    });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((result) => hostOf(result.url) === "acme.com")).toBe(true);
    const wiki = await search({ query: "capital city", include_domains: ["wikipedia.org"] });
    expect(wiki.results.every((result) => hostOf(result.url) === "en.wikipedia.org")).toBe(true);
  });

  it("exclude_domains drops a site", async () => {
    const all = await search({ query: "acme rate limit" });
    expect(all.results.some((result) => hostOf(result.url) === "docs.acme.dev")).toBe(true);
    const { results } = await search({ query: "acme rate limit", exclude_domains: ["docs.acme.dev"] });
    expect(results.length).toBeGreaterThan(0);
    expect(results.some((result) => hostOf(result.url) === "docs.acme.dev")).toBe(false);
  });

  it("time_range counts back from the fixed clock (2026-03-16)", async () => {
    const day = await search({ query: "acme", time_range: "day", max_results: 20 });
    expect(day.results.map((result) => result.url)).toEqual([
      "https://technewsdaily.com/2026/03/15/acme-api-outage-postmortem",
    ]);
    const week = (await search({ query: "acme", time_range: "week", max_results: 20 })).results.map((r) => r.url);
    expect(week).toContain("https://acme.com/blog/launching-acme-assist");
    expect(week).not.toContain("https://acme.com/blog/acme-raises-series-b");
    const month = (await search({ query: "acme", time_range: "month", max_results: 20 })).results.map((r) => r.url);
    expect(month).toContain("https://acme.com/blog/acme-raises-series-b");
    expect(month).not.toContain("https://acme.com/blog/q4-2025-results");
  });

  it("start_date / end_date bound published dates and override time_range", async () => {
    const { results } = await search({
      query: "acme",
      start_date: "2026-02-01",
      end_date: "2026-02-28",
      time_range: "day",
      max_results: 20,
    });
    expect(results.length).toBeGreaterThan(2);
    expect(results.every((r) => r.published_date >= "2026-02-01" && r.published_date <= "2026-02-28")).toBe(true);
    expect(await server.call("tavily_search", { query: "acme", start_date: "March 1" })).toEqual({
      kind: "tool_error",
      text: 'invalid_request: Tavily API error: start_date must be a date in the format YYYY-MM-DD, got "March 1"',
    });
  });

  it("exact_match keeps only pages with the quoted phrase", async () => {
    const loose = await search({ query: '"Northwind Ventures" acme funding', max_results: 10 });
    const exact = await search({ query: '"Northwind Ventures" acme funding', exact_match: true, max_results: 10 });
    expect(loose.results.length).toBeGreaterThan(exact.results.length);
    expect(exact.results.map((result) => result.url).sort()).toEqual([
      "https://acme.com/blog/acme-raises-series-b",
      "https://fintechwire.com/2026/02/acme-series-b-northwind",
    ]);
  });
});

describe("tavily_search: result shape options", () => {
  it("include_answer gives the best sentence of the top result; otherwise answer is null", async () => {
    const withAnswer = await search({ query: "capital of Australia", include_answer: true });
    expect(withAnswer.answer).toBe("Canberra is the capital city of Australia, not Sydney or Melbourne.");
    expect((await search({ query: "capital of Australia" })).answer).toBeNull();
  });

  it("include_raw_content, include_favicon, include_images and search_depth shape each result", async () => {
    const basic = await search({ query: "acme assist launch" });
    expect(basic.results[0]).not.toHaveProperty("raw_content");
    expect(basic.images).toEqual([]);
    expect(basic.results[0]!.content).not.toContain("[...]");

    const rich = await search({
      query: "acme assist launch",
      include_raw_content: true,
      include_favicon: true,
      include_images: true,
      search_depth: "advanced",
    });
    const top = rich.results[0]!;
    expect(top.raw_content?.startsWith("# Introducing Acme Assist")).toBe(true);
    expect(top.favicon).toBe("https://acme.com/favicon.ico");
    expect(top.content).toContain(" [...] ");
    expect(rich.images).toContain("https://acme.com/images/acme-assist-screenshot.png");

    const described = await search({ query: "acme assist launch", include_image_descriptions: true });
    expect(described.images).toContainEqual({
      url: "https://acme.com/images/acme-assist-screenshot.png",
      description: "Acme Assist answering a merchant's question in the dashboard",
    });
  });
});

describe("tavily_extract", () => {
  it("returns pages for known URLs (any spelling) and puts unknown ones in failed_results", async () => {
    const data = await server.ok("tavily_extract", {
      urls: ["docs.acme.dev/webhooks/", "https://example.org/nothing-here", "not a url"],
    });
    const results = data.results as { url: string; raw_content: string }[];
    expect(results).toHaveLength(1);
    expect(results[0]!.raw_content).toContain("HMAC SHA-256");
    expect(results[0]!.raw_content.startsWith("# Webhooks | Acme Docs")).toBe(true);
    expect(data.failed_results).toEqual([
      { url: "https://example.org/nothing-here", error: "Failed to fetch url" },
      { url: "not a url", error: "Invalid URL" },
    ]);
  });

  it("format text drops markdown; a query keeps only the most relevant chunks", async () => {
    const text = await server.ok("tavily_extract", { urls: ["https://docs.acme.dev/getting-started"], format: "text" });
    const page = (text.results as { raw_content: string }[])[0]!.raw_content;
    expect(page).not.toContain("`");
    expect(page).toContain("npm install -g @acme/cli");
    const ranked = await server.ok("tavily_extract", {
      urls: ["https://docs.acme.dev/rate-limits"],
      query: "429 Retry-After",
    });
    expect((ranked.results as { raw_content: string }[])[0]!.raw_content.startsWith("When you exceed the limit")).toBe(
      true,
    );
  });

  it("refuses an empty URL list", async () => {
    expect(await server.call("tavily_extract", { urls: [] })).toEqual({
      kind: "tool_error",
      text: "invalid_request: Tavily API error: No URLs provided",
    });
  });
});

describe("tavily_crawl and tavily_map", () => {
  const DOCS_DEPTH_1 = [
    "https://docs.acme.dev/",
    "https://docs.acme.dev/getting-started",
    "https://docs.acme.dev/authentication",
    "https://docs.acme.dev/api/overview",
    "https://docs.acme.dev/webhooks",
    "https://docs.acme.dev/rate-limits",
    "https://docs.acme.dev/sdks",
    "https://docs.acme.dev/changelog",
  ];

  it("maps a site breadth-first to max_depth", async () => {
    const depth1 = await server.ok("tavily_map", { url: "https://docs.acme.dev" });
    expect(depth1.results).toEqual(DOCS_DEPTH_1);
    const depth2 = (await server.ok("tavily_map", { url: "docs.acme.dev", max_depth: 2 })).results as string[];
    expect(depth2.slice(0, 8)).toEqual(DOCS_DEPTH_1);
    expect(depth2).toEqual(
      expect.arrayContaining([
        "https://docs.acme.dev/api/orders",
        "https://docs.acme.dev/api/customers",
        "https://acme.com/blog/launching-acme-assist",
      ]),
    );
    expect(depth2).toHaveLength(11);
  });

  it("honours allow_external, max_breadth, limit and select_paths", async () => {
    const internal = (await server.ok("tavily_map", { url: "docs.acme.dev", max_depth: 2, allow_external: false }))
      .results as string[];
    expect(internal).toHaveLength(10);
    expect(internal.every((url) => hostOf(url) === "docs.acme.dev")).toBe(true);
    expect((await server.ok("tavily_map", { url: "docs.acme.dev", max_breadth: 2 })).results).toEqual(
      DOCS_DEPTH_1.slice(0, 3),
    );
    expect((await server.ok("tavily_map", { url: "docs.acme.dev", limit: 4 })).results).toEqual(
      DOCS_DEPTH_1.slice(0, 4),
    );
    expect(
      (await server.ok("tavily_map", { url: "docs.acme.dev", max_depth: 3, select_paths: ["^/api/"] })).results,
    ).toEqual([
      "https://docs.acme.dev/api/overview",
      "https://docs.acme.dev/api/orders",
      "https://docs.acme.dev/api/customers",
    ]);
  });

  it("crawls pages with content, filtered by instructions", async () => {
    const data = await server.ok("tavily_crawl", {
      url: "https://docs.acme.dev/",
      instructions: "pages about webhook signing",
      format: "text",
      include_favicon: true,
    });
    const pages = data.results as { url: string; raw_content: string; favicon: string }[];
    expect(data.base_url).toBe("https://docs.acme.dev/");
    expect(pages.map((page) => page.url)).toContain("https://docs.acme.dev/webhooks");
    expect(pages.map((page) => page.url)).not.toContain("https://docs.acme.dev/rate-limits");
    expect(pages.every((page) => page.favicon === "https://docs.acme.dev/favicon.ico")).toBe(true);
  });

  it("fails for a site the mock web does not hold, and for a broken regex", async () => {
    expect(await server.call("tavily_crawl", { url: "https://unknown.example.net" })).toEqual({
      kind: "tool_error",
      text: "not_found: Tavily API error: Failed to crawl https://unknown.example.net: the URL could not be reached",
    });
    const broken = await server.call("tavily_map", { url: "docs.acme.dev", select_paths: ["(api"] });
    expect(broken.kind === "tool_error" && broken.text).toContain("select_paths contains an invalid regex");
  });
});

describe("tavily_research", () => {
  it("writes a cited report from the best sources; auto picks mini for short tasks", async () => {
    const data = await server.ok("tavily_research", { input: "Qwen2.5 small model sizes and context length" });
    const sources = data.sources as { url: string }[];
    expect(data.model).toBe("mini");
    expect(sources).toHaveLength(3);
    expect(sources[0]!.url).toBe("https://qwenlm.github.io/blog/qwen2.5/");
    expect(data.content).toContain(
      "[1] Qwen2.5: A Party of Foundation Models! — https://qwenlm.github.io/blog/qwen2.5/",
    );
    const pro = await server.ok("tavily_research", { input: "acme funding", model: "pro" });
    expect((pro.sources as unknown[]).length).toBeGreaterThan(3);
  });
});

describe("search server: checks and determinism", () => {
  it("corpus_has_url passes for a known page in any spelling and fails for an unknown one", async () => {
    expect(await server.check("corpus_has_url", { url: "http://www.docs.acme.dev/rate-limits/" })).toMatchObject({
      pass: true,
    });
    expect(await server.check("corpus_has_url", { url: "https://docs.acme.dev/pricing" })).toMatchObject({
      pass: false,
    });
  });

  it("search_returns passes when the page ranks within the cut-off and fails otherwise", async () => {
    expect(
      await server.check("search_returns", {
        query: "capital of Australia",
        url: "https://en.wikipedia.org/wiki/Canberra",
      }),
    ).toMatchObject({ pass: true, detail: expect.stringContaining("rank 1") });
    expect(
      await server.check("search_returns", { query: "capital of Australia", url: "https://go.dev/blog/go1.24" }),
    ).toMatchObject({ pass: false });
  });

  it("is deterministic: same call, same answer; fresh states equal; reset restores the fixture", async () => {
    const args = { query: "acme outage", include_answer: true, include_raw_content: true };
    expect(await server.ok("tavily_search", args)).toEqual(await server.ok("tavily_search", args));
    const other = await openTestServer(searchServer);
    expect(await other.ok("tavily_search", args)).toEqual(await server.ok("tavily_search", args));
    const fresh = await other.dump();
    expect(await server.dump()).toEqual(fresh);
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(fresh);
    expect((fresh as SearchState).documents).toHaveLength(80);
    await other.close();
  });
});
