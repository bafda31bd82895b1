/**
 * Nesting limits for values a model writes. A deep value is refused where it is read, because everything
 * downstream (JSON.stringify, structuredClone, canonical keys, the records) recurses and would throw a
 * RangeError on it. Both checks here are iterative, so they hold at any depth.
 */

/** Deepest arrays/objects accepted in model-written data (JSON, call arguments, Python literals). */
export const MAX_NESTING_DEPTH = 32;

/**
 * The nesting depth of a value's arrays and objects (a scalar is 0, `[]` is 1), counted no further than
 * `limit + 1`: enough to say it is too deep without walking all of it.
 */
export function valueDepth(value: unknown, limit = MAX_NESTING_DEPTH): number {
  if (value === null || typeof value !== "object") return 0;
  // two parallel stacks of objects only: no pair per value, no scalar ever pushed
  const items: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  while (items.length > 0) {
    const item = items.pop() as object;
    const depth = depths.pop() as number;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (child !== null && typeof child === "object") {
        items.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/** True when `value` nests deeper than `limit`. */
export function tooDeep(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  return valueDepth(value, limit) > limit;
}

/**
 * The deepest bracket nesting in a text (`[`, `{`, `(`), in one pass: checked before handing text to a
 * recursive parser such as jsonrepair. Brackets inside strings count too: over-counting only refuses a
 * repair, while skipping quotes would trust a stray apostrophe.
 */
export function textDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 91 || code === 123 || code === 40) deepest = Math.max(deepest, ++depth);
    else if (code === 93 || code === 125 || code === 41) depth = Math.max(0, depth - 1);
  }
  return deepest;
}
