import { createHash } from "node:crypto";
import type { GithubState } from "./state.ts";

export function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/**
 * A numeric id that depends only on what the object is (e.g. "acme/webapp#issue#12"), so editing one
 * fixture never shifts the ids of others. Range 1e9–5e9, like GitHub's REST ids.
 */
export function stableId(...parts: (string | number)[]): number {
  return 1_000_000_000 + (Number.parseInt(sha1(parts.join("#")).slice(0, 8), 16) % 4_000_000_000);
}

/** Next value of the session counter; every new id, sha and thread id of this session derives from it. */
export function nextCounter(state: GithubState): number {
  state.counter += 1;
  return state.counter;
}

export function newId(state: GithubState, kind: string): number {
  return stableId("session", kind, nextCounter(state));
}

/** GitHub's timestamp format: ISO 8601 without milliseconds. */
export function timestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}
