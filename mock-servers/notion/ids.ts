import { createHash } from "node:crypto";
import { validationError } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A v4-looking UUID derived from a seed; the fixtures' IDs were made the same way. */
export function uuidFrom(seed: string): string {
  const hex = createHash("sha1").update(`acme-notion:${seed}`).digest("hex");
  const h = `${hex.slice(0, 12)}4${hex.slice(13, 16)}8${hex.slice(17, 32)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Accepts a UUID with or without dashes (as Notion does); anything else is a validation_error. */
export function normalizeId(value: unknown, path: string): string {
  const text = String(value ?? "").trim();
  if (!UUID.test(text)) {
    throw validationError(`${path} should be a valid uuid, instead was \`${JSON.stringify(value)}\`.`);
  }
  const hex = text.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The next ID for an object created in this session, from the state's counter (deterministic). */
export function nextId(state: { counter: number }): string {
  state.counter += 1;
  return uuidFrom(`new:${state.counter}`);
}
