/** GitHub search syntax: free words (all must match), "quoted phrases", and key:value qualifiers (-key:value negates). */

export interface Qualifier {
  key: string;
  value: string;
  negated: boolean;
}

export interface SearchQuery {
  /** Lower-cased words and phrases that must all occur. */
  terms: string[];
  qualifiers: Qualifier[];
}

const TOKEN = /(-?)([A-Za-z_-]+):("[^"]*"|\S+)|"([^"]*)"|(\S+)/g;

/** Splits a query; qualifiers whose key is not in `knownKeys` stay plain words, as GitHub treats them. */
export function parseSearchQuery(query: string, knownKeys: readonly string[]): SearchQuery {
  const terms: string[] = [];
  const qualifiers: Qualifier[] = [];
  for (const match of query.matchAll(TOKEN)) {
    const [whole, minus, key, rawValue, phrase, word] = match;
    if (key !== undefined && rawValue !== undefined && knownKeys.includes(key.toLowerCase())) {
      qualifiers.push({ key: key.toLowerCase(), value: rawValue.replace(/^"|"$/g, ""), negated: minus === "-" });
    } else if (phrase !== undefined) {
      if (phrase.trim()) terms.push(phrase.toLowerCase());
    } else {
      const text = (word ?? whole).toLowerCase();
      if (!["and", "or"].includes(text)) terms.push(text);
    }
  }
  return { terms, qualifiers };
}

export function matchesTerms(text: string, terms: string[]): boolean {
  const haystack = text.toLowerCase();
  return terms.every((term) => haystack.includes(term));
}

/** How often the terms occur: the "best match" order when no sort is given. */
export function termScore(text: string, terms: string[]): number {
  const haystack = text.toLowerCase();
  return terms.reduce((score, term) => score + haystack.split(term).length - 1, 0);
}

/** ">10", ">=10", "<5", "<=5", "10..20", "10" against a number, or the same forms against ISO dates. */
export function compareRange(value: number | string, expression: string): boolean {
  const range = /^(.+)\.\.(.+)$/.exec(expression);
  if (range) return compareRange(value, `>=${range[1]}`) && compareRange(value, `<=${range[2]}`);
  const match = /^(>=|<=|>|<)?(.+)$/.exec(expression)!;
  const operator = match[1] ?? "=";
  const bound = match[2]!;
  const diff = typeof value === "number" ? value - Number(bound) : value.slice(0, bound.length).localeCompare(bound);
  if (Number.isNaN(diff)) return false;
  return operator === ">"
    ? diff > 0
    : operator === ">="
      ? diff >= 0
      : operator === "<"
        ? diff < 0
        : operator === "<="
          ? diff <= 0
          : diff === 0;
}

/** Every qualifier with this key must hold (negated ones must not). */
export function qualifiersHold(query: SearchQuery, key: string, test: (value: string) => boolean): boolean {
  return query.qualifiers
    .filter((qualifier) => qualifier.key === key)
    .every((qualifier) => test(qualifier.value) !== qualifier.negated);
}

export function sortDirection(order: "asc" | "desc" | undefined): 1 | -1 {
  return order === "asc" ? 1 : -1;
}
