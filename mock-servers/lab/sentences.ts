/**
 * Splits prose into sentences. A boundary is sentence-final punctuation (. ! ? …, optionally followed by closing
 * quotes/brackets) plus whitespace before something that can start a sentence (a capital, a digit or an opening
 * quote), or a blank line. A period is NOT a boundary after a known abbreviation (Dr., e.g., approx. …), a single
 * initial (J. Smith) or a dotted acronym (U.S.), so "Dr. Chen met us, e.g. at 9." stays one sentence.
 */

/** Abbreviations (lower case, without the final period) that do not end a sentence. */
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "mt",
  "rev",
  "gen",
  "col",
  "capt",
  "lt",
  "sgt",
  "gov",
  "sen",
  "rep",
  "e.g",
  "i.e",
  "vs",
  "cf",
  "al",
  "approx",
  "ca",
  "incl",
  "dept",
  "est",
  "fig",
  "vol",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
]);

/** Abbreviations only before a number ("No. 5", "p. 12"); elsewhere the word can end a sentence ("The answer is no."). */
const NUMBER_ABBREVIATIONS = new Set(["no", "nr", "pp"]);

/** Dotted acronyms that often do end a sentence ("We met at 9 a.m. Then …"). */
const TERMINAL_ACRONYMS = new Set(["a.m", "p.m"]);

const CANDIDATE = /([.!?…]+)(["'”’)\]]*)(\s+)(?=["'“‘([]?[\p{Lu}\d])|\n\s*\n/gu;

function endsWithAbbreviation(before: string, next: string): boolean {
  const word = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? "";
  if (word === "") return false;
  if (NUMBER_ABBREVIATIONS.has(word)) return /\d/.test(next);
  if (TERMINAL_ACRONYMS.has(word)) return false;
  if (ABBREVIATIONS.has(word)) return true;
  if (/^\p{L}$/u.test(word)) return true; // an initial: "J. R. R. Tolkien"
  return /^(?:\p{L}\.)+\p{L}$/u.test(word); // a dotted acronym: "U.S", "U.K"
}

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const [whole, punctuation] = match;
    const end = match.index + whole.length;
    if (punctuation === ".") {
      if (endsWithAbbreviation(text.slice(start, match.index), text.charAt(end))) continue;
    }
    sentences.push(text.slice(start, end));
    start = end;
  }
  sentences.push(text.slice(start));
  return sentences.map((sentence) => sentence.replace(/\s+/g, " ").trim()).filter((sentence) => sentence !== "");
}
