/** Latency of one run, split into model, tools and harness overhead. */

import { reported, sumReported } from "./finite.ts";
import type { LatencyScore } from "./score-types.ts";
import type { TraceView } from "./types.ts";

/**
 * Overhead = total − model − tools (the agent measures model and tool time as wall-clock unions,
 * so nothing is counted twice), floored at 0. Prompt-eval / generation / load are the providers'
 * own figures summed over the run's model calls.
 *
 * Loading the model is not latency: the time a server reports for it (`load_duration`: a cold start,
 * or a reload for another window) is taken out of the call, the model time and the total, and kept
 * apart in `loadMs`. A call cannot have loaded for longer than it took (the simulator reports a load
 * it never waits for).
 */
export function scoreLatency(trace: TraceView): LatencyScore {
  const loads = trace.modelCalls.map((call) =>
    Math.min(reported(call.timings?.loadMs ?? 0), reported(call.durationMs)),
  );
  const loaded = loads.reduce((sum, load) => sum + load, 0);
  const totalMs = Math.max(0, reported(trace.timings.totalMs) - loaded);
  const modelMs = Math.max(0, reported(trace.timings.modelMs) - loaded);
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
    modelCallMs: trace.modelCalls.map((call, index) => reported(call.durationMs) - loads[index]!),
  };
}
