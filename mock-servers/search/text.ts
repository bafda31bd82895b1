/** Tokenising and sentence splitting shared by ranking, snippets and answers (English, deterministic). */

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "me my of on or our so than that the their them then there these they this those to was we were what when " +
    "where which who whom why will with would you your about after before also any more most much no not only " +
    "other over some such up out just should very via per vs"
  ).split(" "),
);

/** Removes accents so "Niño" matches "nino" and "Mbappé" matches "mbappe". */
function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/** A light plural stemmer: "models" → "model", "cities" → "city"; leaves "class", "status", "analysis". */
function stem(token: string): string {
  if (token.length > 4 && token.endsWith("ies")) return `${token.slice(0, -3)}y`;
  if (token.length > 3 && token.endsWith("s") && !/(ss|us|is)$/.test(token) && /[a-z]s$/.test(token)) {
    return token.slice(0, -1);
  }
  return token;
}

/**
 * Splits text into index terms. Compound tokens are kept whole and also split, so "Node.js" indexes as
 * node.js + node + js and "Qwen2.5" as qwen2.5 + qwen + 2.5: a query written either way finds the page.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const raw =
    fold(text)
      .replace(/['’]s\b/g, "")
      .match(/[a-z0-9]+(?:\.[a-z0-9]+)*/g) ?? [];
  for (const token of raw) {
    const parts = new Set<string>([token]);
    if (token.includes(".")) for (const part of token.split(".")) parts.add(part);
    const lettersThenNumber = /^([a-z]+)([0-9][0-9.]*)$/.exec(token);
    if (lettersThenNumber) {
      parts.add(lettersThenNumber[1]!);
      parts.add(lettersThenNumber[2]!);
    }
    for (const part of parts) {
      if (part.length === 0 || STOPWORDS.has(part)) continue;
      terms.push(stem(part));
    }
  }
  return terms;
}

/** Distinct terms of a query, in first-seen order. */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))];
}

/** Sentences of a paragraph; splits after . ! ? followed by a space and a capital, digit or quote. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** Phrases written in double quotes inside a query (Tavily's exact_match syntax). */
export function quotedPhrases(query: string): string[] {
  return [...query.matchAll(/"([^"]+)"/g)].map((match) => fold(match[1]!).replace(/\s+/g, " ").trim());
}

/** Case- and accent-insensitive containment on whitespace-normalised text. */
export function containsPhrase(text: string, phrase: string): boolean {
  return fold(text).replace(/\s+/g, " ").includes(phrase);
}

/** Cuts text at a word boundary so snippets stay short, marking the cut with an ellipsis. */
export function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const lastSpace = cut.lastIndexOf(" ");
  return `${cut.slice(0, lastSpace > 0 ? lastSpace : maxChars)}...`;
}
