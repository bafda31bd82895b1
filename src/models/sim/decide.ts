/**
 * Draws the mistakes of one request from its effective rates: one uniform draw for the request level
 * and one per written call, each landing in at most one mistake type (cumulative bands in a fixed
 * order). A type's probability of being drawn is therefore exactly its effective rate.
 */

import { CALL_ERROR_TYPES, type CallErrorType, REQUEST_ERROR_TYPES, type RequestErrorType } from "./error-types.ts";
import type { DrawStreams, Random } from "./random.ts";
import type { SimRates } from "./rates.ts";

export interface SimDecision {
  request?: RequestErrorType;
  /**
   * The mistake (or none) of each call the answer writes, in order. Empty when the request-level
   * mistake is a direct answer: then no call is written.
   */
  calls: (CallErrorType | undefined)[];
}

export function decideMistakes(rates: SimRates, streams: DrawStreams): SimDecision {
  const request = drawBand(REQUEST_ERROR_TYPES, rates.request, streams.stream("decide:request"));
  if (request === "direct_answer_when_tool_needed") return { request, calls: [] };
  const calls = rates.calls.map((callRates, index) =>
    drawBand(CALL_ERROR_TYPES, callRates, streams.stream(`decide:call:${index}`)),
  );
  return { ...(request ? { request } : {}), calls };
}

/** One uniform draw over consecutive bands of the rates, in `order`: the type it lands in, if any. */
export function drawBand<K extends string>(
  order: readonly K[],
  rates: Record<K, number>,
  random: Random,
): K | undefined {
  const draw = random();
  let upper = 0;
  for (const type of order) {
    upper += rates[type];
    if (draw < upper) return type;
  }
  return undefined;
}
