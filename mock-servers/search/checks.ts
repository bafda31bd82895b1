import type { StateCheck } from "../kit/types.ts";
import { findDocument, type SearchState } from "./corpus.ts";
import { searchCorpus } from "./engine.ts";

/** The corpus holds a page at this URL (any spelling: scheme, www., trailing slash). */
const corpusHasUrl: StateCheck<SearchState> = (state, args) => {
  const url = String(args.url ?? "");
  const doc = findDocument(state.documents, url);
  return doc
    ? { pass: true, detail: `${url} is in the corpus: "${doc.title}"` }
    : { pass: false, detail: `${url} is not in the corpus` };
};

/** An unfiltered search for `query` returns `url` within the first `within` results (default 5). */
const searchReturns: StateCheck<SearchState> = (state, args) => {
  const query = String(args.query ?? "");
  const target = findDocument(state.documents, String(args.url ?? ""));
  const within = typeof args.within === "number" ? args.within : 5;
  const urls = searchCorpus(state.documents, query)
    .slice(0, within)
    .map(({ doc }) => doc.url);
  const rank = target ? urls.indexOf(target.url) + 1 : 0;
  return rank > 0
    ? { pass: true, detail: `"${query}" returns ${target!.url} at rank ${rank}` }
    : {
        pass: false,
        detail: `"${query}" does not return ${String(args.url)} in its top ${within}: ${urls.join(", ")}`,
      };
};

export const searchChecks: Record<string, StateCheck<SearchState>> = {
  corpus_has_url: corpusHasUrl,
  search_returns: searchReturns,
};
