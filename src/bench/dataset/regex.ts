/**
 * Regular expressions in the dataset (`{"regex": …}` acceptable values, `answer.regex`) are
 * case-insensitive, like every other comparison of free text here. A leading PCRE-style `(?i)` is
 * accepted and dropped: JavaScript before V8's regexp modifiers (Node 20) rejects inline flags.
 */
export function datasetRegex(source: string): RegExp {
  return new RegExp(source.startsWith("(?i)") ? source.slice(4) : source, "i");
}
