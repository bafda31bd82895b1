/**
 * What the oracle does with a request, before any mistake: route, write tool calls, or answer. Loop
 * protocols continue from the transcript — a gold call counts as done once a call of its tool worked
 * (a model trusts a successful observation; it does not re-check its own arguments).
 *
 * A model knows only the tools its prompt shows. When a gold call still to make needs a tool the
 * prompt does not list, the oracle writes no call at all and answers that it cannot do the task with
 * these tools (`missingTools`): the labels name one tool per call, so it cannot know that another
 * shown tool would do, and a careful model does not start a job it cannot finish.
 */

import { type GoldCall, goldCalls } from "./gold.ts";
import type { SimReading } from "./reading.ts";
import type { SeenCall } from "./transcript.ts";

export type SimTurn =
  | { kind: "route"; needsTool: boolean }
  /** `calls`: to write now; `done`: gold calls an earlier turn already made. */
  | { kind: "calls"; calls: GoldCall[]; done: GoldCall[] }
  /** `missingTools`: gold tools still needed that the prompt does not show. */
  | { kind: "final"; missingTools?: string[] };

export function planTurn(reading: SimReading): SimTurn {
  const { item, protocol } = reading;
  const gold = item ? goldCalls(item) : [];
  if (protocol === "router") return { kind: "route", needsTool: gold.length > 0 };
  if (protocol === "solver" || !reading.canCall || gold.length === 0) return { kind: "final" };
  const { remaining, done } =
    protocol === "planner" || protocol === "select"
      ? { remaining: gold, done: [] }
      : splitDone(gold, reading.transcript.calls);
  if (remaining.length === 0) return { kind: "final" };
  const shown = new Set(reading.tools.map((tool) => tool.name));
  // the selector names the gold tools it is shown, each once; a tool not listed cannot be named
  if (protocol === "select") {
    const calls = remaining.filter(
      (call, index) => shown.has(call.tool) && remaining.findIndex((other) => other.tool === call.tool) === index,
    );
    return calls.length > 0 ? { kind: "calls", calls, done } : { kind: "final" };
  }
  const missingTools = [...new Set(remaining.map((call) => call.tool).filter((tool) => !shown.has(tool)))];
  if (missingTools.length > 0) return { kind: "final", missingTools };
  if (protocol === "planner") return { kind: "calls", calls: remaining, done };
  const oneAtATime = protocol === "react" || protocol === "fallback" || item?.order === "sequence";
  return { kind: "calls", calls: oneAtATime ? remaining.slice(0, 1) : remaining, done };
}

export function splitDone(
  gold: readonly GoldCall[],
  seen: readonly SeenCall[],
): { remaining: GoldCall[]; done: GoldCall[] } {
  const remaining = [...gold];
  const done: GoldCall[] = [];
  for (const call of seen) {
    if (!call.ok) continue;
    const index = remaining.findIndex((candidate) => candidate.tool === call.tool);
    if (index >= 0) done.push(...remaining.splice(index, 1));
  }
  return { remaining, done };
}
