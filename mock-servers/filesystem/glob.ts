/**
 * Glob matching with the minimatch semantics the reference server uses ({ dot: true }): `*` and `?` stay
 * within one path segment, `**` spans any number of segments (including none), `[abc]` / `[!abc]` classes,
 * `{a,b}` alternatives. Patterns match the whole relative path, so `*.ts` only matches top-level files.
 */

function expandBraces(pattern: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(pattern);
  if (!match) return [pattern];
  const before = pattern.slice(0, match.index);
  const after = pattern.slice(match.index + match[0].length);
  return match[1]!.split(",").flatMap((option) => expandBraces(`${before}${option}${after}`));
}

function segmentSource(segment: string): string {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) {
        source += "\\[";
        continue;
      }
      const body = segment
        .slice(i + 1, close)
        .replace(/^!/, "^")
        .replace(/\\/g, "\\\\");
      source += `[${body}]`;
      i = close;
    } else source += char.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return source;
}

function patternSource(pattern: string): string {
  const segments = pattern.split("/");
  let source = "";
  let needsSeparator = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === "**") {
      if (last) source += needsSeparator ? "(?:/.*)?" : ".*";
      else {
        source += needsSeparator ? "/(?:[^/]+/)*" : "(?:[^/]+/)*";
        needsSeparator = false;
      }
      return;
    }
    source += (needsSeparator ? "/" : "") + segmentSource(segment);
    needsSeparator = true;
  });
  return source;
}

export function globToRegExp(pattern: string): RegExp {
  const alternatives = expandBraces(pattern).map(patternSource);
  return new RegExp(`^(?:${alternatives.join("|")})$`);
}

export function matchesGlob(relativePath: string, pattern: string): boolean {
  return globToRegExp(pattern).test(relativePath);
}
