import corpusFixture from "./fixtures/corpus.json" with { type: "json" };

/** One page of the mock web. `content` is markdown; `links` are the page's outgoing links, in page order. */
export interface SearchDocument {
  url: string;
  title: string;
  /** YYYY-MM-DD. */
  published_date: string;
  content: string;
  links: string[];
  images: { url: string; description: string }[];
}

export interface SearchState {
  documents: SearchDocument[];
}

interface FixtureDocument {
  url: string;
  title: string;
  published_date: string;
  content: string[];
  links?: string[];
  images?: { url: string; description: string }[];
}

/** A fresh state: the fixed corpus, deep-copied so no two states share objects. */
export function createSearchState(): SearchState {
  const documents = (corpusFixture.documents as FixtureDocument[]).map((doc) => ({
    url: doc.url,
    title: doc.title,
    published_date: doc.published_date,
    content: doc.content.join("\n\n"),
    links: [...(doc.links ?? [])],
    images: (doc.images ?? []).map((image) => ({ ...image })),
  }));
  return { documents };
}

/** Parses what an agent passes as a URL; a bare host such as "docs.acme.dev/webhooks" gets https://. */
export function parseUrl(raw: string): URL | undefined {
  const trimmed = raw.trim();
  if (!trimmed || /\s/.test(trimmed)) return undefined;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return undefined;
  }
}

/** The host without a leading "www.", lower-case: the unit domain filters and crawls work on. */
export function siteOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, "");
}

/** Identity of a page regardless of scheme, "www.", trailing slash or fragment. */
export function pageKey(url: URL): string {
  const path = url.pathname.replace(/\/+$/, "");
  return `${siteOf(url)}${path}${url.search}`;
}

/** Finds a corpus page by any spelling of its URL. */
export function findDocument(documents: SearchDocument[], raw: string): SearchDocument | undefined {
  const url = parseUrl(raw);
  if (!url) return undefined;
  return pagesByKey(documents).get(pageKey(url));
}

const keyCache = new WeakMap<SearchDocument[], Map<string, SearchDocument>>();

function pagesByKey(documents: SearchDocument[]): Map<string, SearchDocument> {
  let map = keyCache.get(documents);
  if (!map) {
    map = new Map(documents.map((doc) => [pageKey(new URL(doc.url)), doc]));
    keyCache.set(documents, map);
  }
  return map;
}

export function faviconOf(doc: SearchDocument): string {
  return `${new URL(doc.url).origin}/favicon.ico`;
}
