/**
 * The names a server has that are close to one it does not (a mistyped `--model`): the same model
 * with another tag, a name one of them starts, or a few keystrokes apart. Ollama's `name` means
 * `name:latest`, so tags are compared as Ollama compares them.
 */

/** Keystrokes (insert, delete, replace) from a to b: Levenshtein's distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const replace = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, replace));
    }
    previous = current;
  }
  return previous[b.length]!;
}

const tagged = (name: string) => (name.includes(":") ? name.toLowerCase() : `${name.toLowerCase()}:latest`);
const family = (name: string) => tagged(name).split(":")[0]!;

/** At most `limit` of `names` close to `wanted`, the closest first (ties in the server's order). */
export function closeNames(wanted: string, names: readonly string[], limit = 5): string[] {
  const target = tagged(wanted);
  // a third of the name may be mistyped, at least two keystrokes ("3bb" for "3b", "qwen25" for "qwen2.5")
  const allowed = Math.max(2, Math.floor(target.length / 3));
  return names
    .map((name, order) => {
      const candidate = tagged(name);
      const distance = editDistance(target, candidate);
      const related =
        family(name) === family(wanted) ||
        candidate.startsWith(family(wanted)) ||
        target.startsWith(family(name)) ||
        distance <= allowed;
      return { name, distance, order, related: related && candidate !== target };
    })
    .filter((entry) => entry.related)
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .slice(0, limit)
    .map((entry) => entry.name);
}
