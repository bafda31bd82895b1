/**
 * An item's session: the servers a user would have connected to ask its query. Under `exposure:
 * session` that is the item's own servers, 0–2 distractor servers and the built-ins; under `exposure:
 * own` the same without distractors; under `exposure: all` (a stress test) every server of the registry.
 * The distractors are chosen from a hash of the run seed and the item id, so a run, its resume and its
 * repeats connect the same servers for an item.
 */

import { hash32, seededRandom } from "../../random.ts";
import type { Exposure } from "../dataset/exposure.ts";
import type { DatasetItem } from "../dataset/types.ts";

/** The built-in tools' server: connected in every session, as OnsetLab always has its built-ins. */
export const BUILTIN_SERVER = "builtin";
/** At most this many servers the item does not need join its session. */
export const MAX_DISTRACTORS = 2;

export interface SessionInput {
  item: Pick<DatasetItem, "id" | "servers">;
  exposure: Exposure;
  /** The run seed (`--seed`). */
  seed: number;
  /** Every server of the registry, in registry order. */
  registry: readonly string[];
}

/** The session's servers, in registry order. */
export function sessionServers({ item, exposure, seed, registry }: SessionInput): string[] {
  if (exposure === "all") return [...registry];
  const own = new Set(item.servers);
  const chosen = exposure === "session" ? distractors(own, `${seed}\u0000${item.id}`, registry) : new Set<string>();
  return registry.filter((server) => own.has(server) || chosen.has(server) || server === BUILTIN_SERVER);
}

/** 0 to MAX_DISTRACTORS servers other than the item's and the built-ins, drawn from `draw` (seed and item). */
function distractors(own: ReadonlySet<string>, draw: string, registry: readonly string[]): Set<string> {
  const random = seededRandom(hash32(`session\u0000${draw}`));
  const candidates = registry.filter((server) => !own.has(server) && server !== BUILTIN_SERVER);
  const count = Math.min(candidates.length, Math.floor(random() * (MAX_DISTRACTORS + 1)));
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(candidates[Math.floor(random() * candidates.length)]!);
  return chosen;
}
