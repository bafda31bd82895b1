import type { SearchDocument } from "./corpus.ts";
import { queryTerms, tokenize } from "./text.ts";

/** Okapi BM25 parameters (the usual defaults). Titles count twice: a title match is strong evidence. */
const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 2;

interface IndexedDocument {
  doc: SearchDocument;
  termCounts: Map<string, number>;
  length: number;
}

export interface RankedDocument {
  doc: SearchDocument;
  /** Raw BM25 score (> 0). */
  bm25: number;
}

/** A BM25 index over title + content of a fixed set of documents. */
export class Bm25Index {
  private readonly entries: IndexedDocument[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(documents: SearchDocument[]) {
    this.entries = documents.map((doc) => {
      const terms = [...Array<string[]>(TITLE_WEIGHT).fill(tokenize(doc.title)).flat(), ...tokenize(doc.content)];
      const termCounts = new Map<string, number>();
      for (const term of terms) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
      for (const term of termCounts.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return { doc, termCounts, length: terms.length };
    });
    const total = this.entries.reduce((sum, entry) => sum + entry.length, 0);
    this.averageLength = this.entries.length > 0 ? total / this.entries.length : 1;
  }

  /** Inverse document frequency (BM25+ style, never negative). */
  idf(term: string): number {
    const df = this.documentFrequency.get(term) ?? 0;
    const n = this.entries.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Documents sharing at least one term with the query, best first; ties broken by URL for determinism. */
  rank(query: string): RankedDocument[] {
    const terms = queryTerms(query);
    const ranked: RankedDocument[] = [];
    for (const entry of this.entries) {
      let score = 0;
      for (const term of terms) {
        const tf = entry.termCounts.get(term) ?? 0;
        if (tf === 0) continue;
        const norm = K1 * (1 - B + (B * entry.length) / this.averageLength);
        score += this.idf(term) * ((tf * (K1 + 1)) / (tf + norm));
      }
      if (score > 0) ranked.push({ doc: entry.doc, bm25: score });
    }
    return ranked.sort((a, b) => b.bm25 - a.bm25 || a.doc.url.localeCompare(b.doc.url));
  }
}

const indexCache = new WeakMap<SearchDocument[], Bm25Index>();

/** The index of a state's corpus, built once (the corpus is read-only). */
export function indexOf(documents: SearchDocument[]): Bm25Index {
  let index = indexCache.get(documents);
  if (!index) {
    index = new Bm25Index(documents);
    indexCache.set(documents, index);
  }
  return index;
}

/** Maps an unbounded BM25 score into Tavily's 0–1 relevance score (monotone, 4 decimals). */
export function relevanceScore(bm25: number): number {
  return Math.round((bm25 / (bm25 + 4)) * 10_000) / 10_000;
}
