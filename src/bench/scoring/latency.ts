/** Latency of one run, split into model, tools and harness overhead. */

import { reported, sumReported } from "./finite.ts";
import type { LatencyScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

/**
 * Overhead = total − model − tools (the agent measures model and tool time as wall-clock unions,
 * so nothing is counted twice), floored at 0. Prompt-eval / generation / load are the providers'
 * own figures summed over the run's model calls.
 */
export function scoreLatency(trace: TraceView): LatencyScore {
  const totalMs = reported(trace.timings.totalMs);
  const modelMs = reported(trace.timings.modelMs);
  const toolsMs = reported(trace.timings.toolsMs);
  const timings = trace.modelCalls.map((call) => call.timings);
  return {
    totalMs,
    modelMs,
    toolsMs,
    overheadMs: Math.max(0, totalMs - modelMs - toolsMs),
    promptEvalMs: sumReported(timings.map((t) => t?.promptEvalMs)),
    evalMs: sumReported(timings.map((t) => t?.evalMs)),
    loadMs: sumReported(timings.map((t) => t?.loadMs)),
    modelCallMs: trace.modelCalls.map((call) => reported(call.durationMs)),
  };
}
