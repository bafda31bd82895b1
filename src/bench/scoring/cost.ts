/** Cost of one run: model calls, tokens, tool calls that reached a server, blocked duplicate writes. */

import type { CountedCall } from "./calls.ts";
import { sumReported } from "./finite.ts";
import type { CostScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

export function scoreCost(trace: TraceView, counted: readonly CountedCall[]): CostScore {
  // tokens count every call (they describe the model's work); cached calls are counted apart, as no server paid them
  const cachedCalls = trace.modelCalls.filter((call) => call.cached).length;
  return {
    modelCalls: trace.modelCalls.length,
    promptTokens: sumReported(trace.modelCalls.map((call) => call.usage?.promptTokens)),
    completionTokens: sumReported(trace.modelCalls.map((call) => call.usage?.completionTokens)),
    toolCalls: counted.length,
    writeBlocks: trace.writeGuard.blocked.length,
    ...(cachedCalls > 0 ? { cachedCalls } : {}),
  };
}
