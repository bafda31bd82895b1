/** The limits as models.yaml and an agent definition's front matter write them (snake_case), and their mapping. */
import { z } from "zod";
import type { AgentLimits } from "../agent/types.ts";
import { dropUndefined } from "../json.ts";

/** The file's key for each limit. `Record<keyof AgentLimits, …>`: a new limit fails to compile here. */
export const LIMIT_KEYS: Record<keyof AgentLimits, string> = {
  plannerMaxTokens: "planner_max_tokens",
  solverMaxTokens: "solver_max_tokens",
  reactMaxIterations: "react_max_iterations",
  nativeMaxCalls: "native_max_calls",
  jsonlMaxIterations: "jsonl_max_iterations",
  toolTimeoutMs: "tool_timeout_ms",
  totalTimeoutMs: "total_timeout_ms",
  solverDataChars: "solver_data_chars",
  observationChars: "observation_chars",
  historyChars: "history_chars",
};

export const positiveInt = z.number().int().min(1);

export const limitsSchema = z.strictObject(
  Object.fromEntries(Object.values(LIMIT_KEYS).map((key) => [key, positiveInt.optional()])),
);

/** Written limits (snake_case) → AgentLimits keys, the absent ones left out. */
export function toLimits(written: z.infer<typeof limitsSchema>): Partial<AgentLimits> {
  return dropUndefined(
    Object.fromEntries(
      Object.entries(LIMIT_KEYS).map(([camel, snake]) => [camel, (written as Record<string, number>)[snake]]),
    ) as Partial<AgentLimits>,
  );
}
