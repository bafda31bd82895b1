/**
 * Text wrapped to a terminal's width, for the facts the CLI prints one per line (a trace, a run's header,
 * a table's notes): broken at spaces, continuation lines indented. With no width, one line each.
 */

/** `prefix` (a label, or the indent) and `text`, wrapped within `width` under the text's own column. */
export function factLines(prefix: string, text: string, width: number | undefined): string[] {
  const [first, ...rest] = wrapped(text, width === undefined ? Infinity : width - prefix.length);
  return [`${prefix}${first}`, ...rest.map((part) => `${" ".repeat(prefix.length)}${part}`)];
}

/**
 * `text` in lines of at most `room` characters, broken at spaces; the lines after the first are indented
 * two spaces more than its own leading spaces. A word longer than the room stays whole, and a list's `·`
 * stays at the end of a line, never starts one.
 */
function wrapped(text: string, room: number): string[] {
  if (text.length <= room) return [text];
  const lead = /^ */.exec(text)![0];
  const indent = `${lead}  `;
  const lines: string[] = [];
  let current = lead;
  const words = text
    .slice(lead.length)
    .split(" ")
    .reduce<string[]>((kept, word) => {
      if (word === "·" && kept.length > 0) kept[kept.length - 1] += " ·";
      else kept.push(word);
      return kept;
    }, []);
  for (const word of words) {
    const start = lines.length === 0 ? lead : indent;
    if (current.length > start.length && current.length + 1 + word.length > room) {
      lines.push(current);
      current = `${indent}${word}`;
    } else {
      current = current.length > start.length ? `${current} ${word}` : `${current}${word}`;
    }
  }
  lines.push(current);
  return lines;
}
