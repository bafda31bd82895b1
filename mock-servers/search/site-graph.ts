import { ToolError } from "../kit/errors.ts";
import { findDocument, parseUrl, type SearchDocument, siteOf } from "./corpus.ts";
import { tokenize } from "./text.ts";

export interface CrawlOptions {
  max_depth?: number;
  max_breadth?: number;
  limit?: number;
  instructions?: string;
  select_paths?: string[];
  select_domains?: string[];
  allow_external?: boolean;
}

export interface CrawlOutcome {
  baseUrl: string;
  pages: SearchDocument[];
}

function compilePatterns(name: string, patterns: string[]): RegExp[] {
  return patterns.map((pattern) => {
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw new ToolError(
        "invalid_request",
        `Tavily API error: ${name} contains an invalid regex "${pattern}": ${(error as Error).message}`,
      );
    }
  });
}

/** Whether a page passes select_paths / select_domains (regexes) and the instructions' keywords. */
function selector(options: CrawlOptions): (doc: SearchDocument) => boolean {
  const paths = compilePatterns("select_paths", options.select_paths ?? []);
  const domains = compilePatterns("select_domains", options.select_domains ?? []);
  // Instructions are natural language; the mock keeps pages sharing at least one content word with them.
  const wanted = new Set(tokenize(options.instructions ?? ""));
  return (doc) => {
    const url = new URL(doc.url);
    if (paths.length > 0 && !paths.some((pattern) => pattern.test(url.pathname))) return false;
    if (domains.length > 0 && !domains.some((pattern) => pattern.test(url.hostname))) return false;
    if (wanted.size === 0) return true;
    return tokenize(`${doc.title} ${doc.content}`).some((term) => wanted.has(term));
  };
}

/**
 * Breadth-first crawl over the corpus' link graph, as Tavily's crawler walks a site: depth 0 is the root,
 * at most max_breadth links are followed per page, at most `limit` pages are visited. Links to pages the
 * mock web does not hold are skipped; pages on other sites are returned (allow_external) but not expanded.
 */
export function crawlSite(documents: SearchDocument[], rootUrl: string, options: CrawlOptions): CrawlOutcome {
  const root = findDocument(documents, rootUrl);
  const parsed = parseUrl(rootUrl);
  if (!root || !parsed) {
    throw new ToolError("not_found", `Tavily API error: Failed to crawl ${rootUrl}: the URL could not be reached`);
  }
  const maxDepth = options.max_depth ?? 1;
  const maxBreadth = options.max_breadth ?? 20;
  const limit = options.limit ?? 50;
  const allowExternal = options.allow_external ?? true;
  const rootSite = siteOf(new URL(root.url));

  const visited = new Set<string>([root.url]);
  const order: SearchDocument[] = [];
  const queue: { doc: SearchDocument; depth: number }[] = [{ doc: root, depth: 0 }];
  while (queue.length > 0 && order.length < limit) {
    const { doc, depth } = queue.shift()!;
    order.push(doc);
    const external = siteOf(new URL(doc.url)) !== rootSite;
    if (depth >= maxDepth || external) continue;
    for (const link of doc.links.slice(0, maxBreadth)) {
      const target = findDocument(documents, link);
      if (!target || visited.has(target.url)) continue;
      if (!allowExternal && siteOf(new URL(target.url)) !== rootSite) continue;
      visited.add(target.url);
      queue.push({ doc: target, depth: depth + 1 });
    }
  }
  const selected = selector(options);
  return { baseUrl: parsed.href, pages: order.filter(selected) };
}
