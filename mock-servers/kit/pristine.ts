/**
 * Cheap resets: a server's state is built from its fixtures once (the pristine state), and every reset gets a
 * deep copy of it. Parts that are immutable by nature (git commits …) can be deep-frozen by the builder: a copy
 * shares them instead of copying them, and a handler that tries to change one throws a TypeError.
 */
import { PristineStateError } from "./errors.ts";

/** Freezes a plain-data value and everything inside it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

/**
 * A state factory equivalent to `build` (same data, same shape, same shared references inside one state) that
 * runs `build` only on its first call and copies that first result afterwards.
 */
export function pristineState<S extends object>(build: () => S): () => S {
  let pristine: { state: S; aliased: ReadonlySet<object> } | undefined;
  return () => {
    if (pristine === undefined) {
      const state = build();
      pristine = { state, aliased: inspectPristine(state) };
    }
    return copyUnfrozen(pristine.state, pristine.aliased, new Map()) as S;
  };
}

/**
 * A deep copy that shares frozen objects and keeps the aliasing of the original, as structuredClone does (an object
 * reached twice is copied once; only the `aliased` ones are looked up) — several times faster on plain data.
 */
function copyUnfrozen(value: unknown, aliased: ReadonlySet<object>, copies: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  const shared = aliased.has(value);
  if (shared) {
    const known = copies.get(value);
    if (known !== undefined) return known;
  }
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    if (shared) copies.set(value, copy);
    for (let index = 0; index < value.length; index++) copy[index] = copyUnfrozen(value[index], aliased, copies);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  if (shared) copies.set(value, copy);
  for (const key of Object.keys(value)) {
    copy[key] = copyUnfrozen((value as Record<string, unknown>)[key], aliased, copies);
  }
  return copy;
}

/**
 * Checks, once, that copyUnfrozen reproduces the pristine state exactly: primitives, dense arrays and plain objects
 * (no own "__proto__" key), nothing mutable inside a frozen part (every copy would share it). Returns the mutable
 * objects reached more than once.
 */
function inspectPristine(state: object): Set<object> {
  const seen = new Set<object>();
  const aliased = new Set<object>();
  const visit = (value: unknown, path: string, insideFrozen: boolean): void => {
    if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
      throw new PristineStateError("pristine_state_shape", `${path}: a ${typeof value} cannot be part of a state`, {
        context: { path },
      });
    }
    if (typeof value !== "object" || value === null) return;
    const frozen = Object.isFrozen(value);
    if (insideFrozen && !frozen) {
      throw new PristineStateError("pristine_state_shape", `${path}: mutable object inside a frozen (shared) one`, {
        context: { path },
      });
    }
    if (seen.has(value)) {
      if (!frozen) aliased.add(value);
      return;
    }
    seen.add(value);
    const prototype = Object.getPrototypeOf(value);
    if (Array.isArray(value)) {
      if (prototype !== Array.prototype) throw notPlain(path);
      for (let index = 0; index < value.length; index++) {
        if (!(index in value)) throw notPlain(`${path}[${index}]`);
        visit(value[index], `${path}[${index}]`, frozen);
      }
      return;
    }
    if (prototype !== Object.prototype || Object.hasOwn(value, "__proto__")) throw notPlain(path);
    for (const [key, field] of Object.entries(value)) visit(field, `${path}.${key}`, frozen);
  };
  visit(state, "state", false);
  return aliased;
}

function notPlain(path: string): PristineStateError {
  return new PristineStateError(
    "pristine_state_shape",
    `${path}: only plain objects, dense arrays and primitives can be copied on reset`,
    { context: { path } },
  );
}
