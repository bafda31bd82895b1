import type { SearchDocument } from "./corpus.ts";
import type { Bm25Index } from "./ranking.ts";
import { queryTerms, splitSentences, tokenize, truncateAtWord } from "./text.ts";

const SNIPPET_CHARS = 500;
/** Tavily returns up to this many chunks per source for advanced searches and query-reranked extracts. */
export const CHUNKS_PER_SOURCE = 3;

export function paragraphsOf(doc: SearchDocument): string[] {
  return doc.content.split(/\n{2,}/).filter((paragraph) => paragraph.trim().length > 0);
}

/** How well a passage covers the query: idf-weighted distinct query terms it contains. */
function coverage(passage: string, terms: string[], index: Bm25Index): number {
  const present = new Set(tokenize(passage));
  return terms.reduce((sum, term) => sum + (present.has(term) ? index.idf(term) : 0), 0);
}

/** Passages ordered by query coverage, earlier passages first on ties. */
function rankPassages(passages: string[], query: string, index: Bm25Index): string[] {
  const terms = queryTerms(query);
  return passages
    .map((passage, position) => ({ passage, position, score: coverage(passage, terms, index) }))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .map((entry) => entry.passage);
}

/** The paragraphs most relevant to the query, at most `count`, each cut to snippet length. */
export function relevantChunks(doc: SearchDocument, query: string, index: Bm25Index, count: number): string[] {
  return rankPassages(paragraphsOf(doc), query, index)
    .slice(0, count)
    .map((chunk) => truncateAtWord(chunk, SNIPPET_CHARS));
}

/** A search result's `content`: one chunk (basic) or up to three joined the way Tavily joins them (advanced). */
export function snippetFor(doc: SearchDocument, query: string, index: Bm25Index, chunks: number): string {
  return relevantChunks(doc, query, index, chunks).join(" [...] ");
}

/** The sentence of a document that best answers the query (an extractive answer). */
export function bestSentence(doc: SearchDocument, query: string, index: Bm25Index): string {
  const sentences = paragraphsOf(doc).flatMap(splitSentences);
  return rankPassages(sentences, query, index)[0] ?? doc.title;
}
