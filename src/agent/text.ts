/** Word handling shared by the router, filter, skills and rescue: tokens, stems, key spellings. */

const STOPWORDS = new Set(
  (
    "a an the and or of to in on for with from by at as is are was were be been it its this that these those " +
    "i me my we our you your he she they them their what which who whom how when where why can could would " +
    "should will shall do does did please all any some into about than then there here also just only not no " +
    "if so up out over under again more most other such own same too very s t"
  ).split(" "),
);

/** Lower-case words of prose ("GitHub" stays one word). */
export function splitWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** The words of an identifier: camelCase, snake_case, kebab-case and dotted names split into parts. */
export function splitName(name: string): string[] {
  return splitWords(name.replace(/([a-z0-9])([A-Z])/g, "$1 $2"));
}

/** A crude English stem, enough to make `issues`/`issue` and `repositories`/`repository` meet. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Stemmed content words of a text, stopwords removed. */
export function contentWords(text: string): string[] {
  return splitWords(text)
    .filter((word) => !isStopword(word))
    .map(stem);
}

export function toSnakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();
}

export function toCamelCase(key: string): string {
  return key.replace(/[_-]+([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** A spelling-insensitive form of a key: `issueNumber`, `issue_number`, `Issue-Number` → `issuenumber`. */
export function looseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** A value as text for prompts and records: strings as they are, everything else as compact JSON. */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * The text before the first stop sequence: what a server that honours `stop` returns. Applied on the
 * client too, because the simulator, the scripted model and some servers ignore or cap the list.
 */
export function cutAtStops(text: string, stops: readonly string[] | undefined): string {
  let end = text.length;
  for (const stop of stops ?? []) {
    const at = stop ? text.indexOf(stop) : -1;
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}
