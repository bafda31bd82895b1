/** `#En` references between plan steps: finding them, and replacing them with earlier results. */

import { REFERENCE_SOURCE } from "./call-syntax.ts";
import { asText } from "./text.ts";

const WHOLE_REFERENCE = new RegExp(`^\\s*${REFERENCE_SOURCE}\\s*$`);

function referencePattern(): RegExp {
  return new RegExp(REFERENCE_SOURCE, "g");
}

/** Step ids (`#E1` …) referenced anywhere inside a value. */
export function findReferences(value: unknown): string[] {
  const found = new Set<string>();
  visitStrings(value, (text) => {
    for (const match of text.matchAll(referencePattern())) found.add(`#E${match[1]}`);
  });
  return [...found];
}

/** Rewrites references to each dropped step as references to the step it repeated, in one pass. */
export function renameReferences(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  return mapStrings(value, (text) => text.replace(/#E\d+/g, (id) => renames.get(id) ?? id));
}

export interface Resolution {
  value: unknown;
  problems: string[];
}

/**
 * Replaces references with results. A string that is exactly one reference becomes the referenced
 * value itself (a number stays a number); references inside longer text are spliced in as text.
 * Without `fieldPaths` (OnsetLab) a reference is `#En` alone: the result's whole text goes in, and
 * a path written after it (`.items[0].id`) stays behind as literal text.
 */
export function resolveReferences(
  value: unknown,
  results: ReadonlyMap<string, unknown>,
  fieldPaths = true,
): Resolution {
  const problems: string[] = [];
  const resolveOne = (id: string, path: string): unknown => {
    if (!results.has(id)) {
      problems.push(`${id} has no result`);
      return undefined;
    }
    if (!fieldPaths) return `${asText(results.get(id))}${path}`;
    const found = readPath(results.get(id), path);
    if (!found.ok) problems.push(`${id}${path}: ${found.problem}`);
    return found.value;
  };
  const resolved = mapStrings(value, (text) => {
    const whole = WHOLE_REFERENCE.exec(text);
    if (whole) return resolveOne(`#E${whole[1]}`, whole[2] ?? "");
    return text.replace(referencePattern(), (_, index: string, path: string) => {
      const found = resolveOne(`#E${index}`, path);
      return found === undefined ? "" : asText(found);
    });
  });
  return { value: resolved, problems };
}

type PathResult = { ok: true; value: unknown } | { ok: false; value: undefined; problem: string };

/**
 * Follows `.field`, `.0`, `[0]` and `["key"]` into a result. Two forgiving rules, because small models
 * skip one level: an index on an object applies to its only array property (`#E1[0]` on `{items: […]}`),
 * and a field on an array applies to its first element (`#E1.id` on `[{id}]`).
 */
export function readPath(root: unknown, path: string): PathResult {
  let current = root;
  for (const segment of pathSegments(path)) {
    current = step(current, segment);
    if (current === undefined) return { ok: false, value: undefined, problem: `no ${JSON.stringify(segment)}` };
  }
  return { ok: true, value: current };
}

function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/\.([A-Za-z_][\w-]*)|\.(\d+)|\[(\d+)\]|\[["']([^"'\]]*)["']\]/g)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) segments.push(Number(match[3]));
    else segments.push(match[4] ?? "");
  }
  return segments;
}

function step(current: unknown, segment: string | number): unknown {
  if (Array.isArray(current)) {
    if (typeof segment === "number") return current[segment];
    return step(current[0], segment);
  }
  if (current === null || typeof current !== "object") return undefined;
  const record = current as Record<string, unknown>;
  if (typeof segment === "string" || String(segment) in record) return record[String(segment)];
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[])[segment] : undefined;
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  mapStrings(value, (text) => {
    visit(text);
    return text;
  });
}

function mapStrings(value: unknown, map: (text: string) => unknown): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}
