/**
 * What the oracle does with a request, before any mistake: route, write tool calls, or answer. Loop
 * protocols continue from the transcript — a gold call counts as done once a call of its tool worked
 * (a model trusts a successful observation; it does not re-check its own arguments).
 */

import { type GoldCall, goldCalls } from "./gold.ts";
import type { SimReading } from "./reading.ts";
import type { SeenCall } from "./transcript.ts";

export type SimTurn =
  | { kind: "route"; needsTool: boolean }
  /** `calls`: to write now; `done`: gold calls an earlier turn already made. */
  | { kind: "calls"; calls: GoldCall[]; done: GoldCall[] }
  | { kind: "final" };

export function planTurn(reading: SimReading): SimTurn {
  const { item, protocol } = reading;
  const gold = item ? goldCalls(item) : [];
  if (protocol === "router") return { kind: "route", needsTool: gold.length > 0 };
  if (protocol === "solver" || !reading.canCall || gold.length === 0) return { kind: "final" };
  if (protocol === "planner") return { kind: "calls", calls: gold, done: [] };
  const { remaining, done } = splitDone(gold, reading.transcript.calls);
  if (remaining.length === 0) return { kind: "final" };
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
