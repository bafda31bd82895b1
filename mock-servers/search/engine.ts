import type { SearchDocument } from "./corpus.ts";
import { type DateWindow, domainFilter, inWindow } from "./filters.ts";
import { indexOf, type RankedDocument } from "./ranking.ts";
import { containsPhrase, quotedPhrases } from "./text.ts";

export interface SearchOptions {
  window?: DateWindow;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Keep only pages containing every "quoted phrase" of the query. */
  exactMatch?: boolean;
}

/** Ranks the corpus for a query, then applies Tavily's filters (dates, domains, exact phrases). */
export function searchCorpus(
  documents: SearchDocument[],
  query: string,
  options: SearchOptions = {},
): RankedDocument[] {
  const domainOk = domainFilter(options.includeDomains ?? [], options.excludeDomains ?? []);
  const phrases = options.exactMatch ? quotedPhrases(query) : [];
  return indexOf(documents)
    .rank(query)
    .filter(({ doc }) => domainOk(doc) && inWindow(doc, options.window ?? {}))
    .filter(({ doc }) => phrases.every((phrase) => containsPhrase(`${doc.title}\n${doc.content}`, phrase)));
}
