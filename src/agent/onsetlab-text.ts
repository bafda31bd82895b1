/**
 * Text the way OnsetLab's Python reads it, for the stages that reproduce it (`router`, `relevance`,
 * `ranking`, `parser`, `rescue` at `onsetlab`): Python's `\w` is Unicode (letters, digits, `_`), its
 * `str.split()` splits on runs of whitespace, its slices count code points and its `.` stops only at `\n`.
 */

/** Python's `\w` in a JavaScript `u`-flag regex. */
export const PY_WORD_CHAR = "[\\p{L}\\p{N}_]";

const WORD_RUN = new RegExp(`${PY_WORD_CHAR}+`, "gu");

/** `re.findall(r'\b\w{3,}\b', text)` as a set: whole words of three characters or more. */
export function pyWordSet(text: string): Set<string> {
  return new Set([...text.matchAll(WORD_RUN)].map((match) => match[0]).filter((word) => pyLength(word) >= 3));
}

/** `text.split()`: the words between runs of whitespace. */
export function pySplit(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== "");
}

/** `len(text)`: code points, not UTF-16 units. */
export function pyLength(text: string): number {
  return [...text].length;
}

/** `text[:count]` in code points. */
export function pyHead(text: string, count: number): string {
  return [...text].slice(0, count).join("");
}
