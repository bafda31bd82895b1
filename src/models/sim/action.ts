/**
 * What the answer does once the mistakes are drawn: route, write calls (with their call-level
 * mistakes), or answer. A tool call on a query that needs none calls the tempting tool — the forbidden
 * one of a missing_info item when the prompt shows it, else the first tool shown — with the prompt's
 * example values. A task whose tools the prompt does not show is answered with what is lacking.
 */

import { groundedAnswer, LACKING_TOOL } from "./answer.ts";
import type { SimDecision } from "./decide.ts";
import { type WrittenCall, writeCall } from "./mistakes.ts";
import type { Random } from "./random.ts";
import type { SimReading } from "./reading.ts";
import type { SimTurn } from "./turn.ts";

export type SimAction =
  | { kind: "route"; word: "ACTION" | "DIRECT" }
  /** `repeatable`: calls made in earlier turns, which a duplicate step repeats. */
  | { kind: "calls"; calls: WrittenCall[]; repeatable: WrittenCall[] }
  | { kind: "final"; answer: string };

export function buildAction(reading: SimReading, turn: SimTurn, decision: SimDecision, random: Random): SimAction {
  const answer = () => ({ kind: "final" as const, answer: groundedAnswer(reading.item, reading.transcript.data) });
  switch (turn.kind) {
    case "route": {
      const needsTool =
        decision.request === "tool_call_on_direct" ||
        (turn.needsTool && decision.request !== "direct_answer_when_tool_needed");
      return { kind: "route", word: needsTool ? "ACTION" : "DIRECT" };
    }
    case "calls": {
      if (decision.request === "direct_answer_when_tool_needed") return answer();
      const context = { tools: reading.tools, servers: reading.item?.servers ?? [], random };
      return {
        kind: "calls",
        calls: turn.calls.map((call, index) => writeCall(call, decision.calls[index], context)),
        repeatable: turn.done.map((call) => writeCall(call, undefined, context)),
      };
    }
    case "final": {
      const spurious = decision.request === "tool_call_on_direct" ? temptingCall(reading) : undefined;
      if (spurious) return { kind: "calls", calls: [spurious], repeatable: [] };
      return turn.missingTools ? { kind: "final", answer: LACKING_TOOL } : answer();
    }
  }
}

/** A model can only be tempted by a tool its prompt shows. */
function temptingCall(reading: SimReading): WrittenCall | undefined {
  const forbidden = reading.item?.forbidden?.find((name) => reading.tools.some((tool) => tool.name === name));
  const name = forbidden ?? reading.tools[0]?.name;
  if (name === undefined) return undefined;
  const shown = reading.tools.find((tool) => tool.name === name);
  const args = (shown?.required ?? []).map((param): [string, unknown] => [param, shown?.examples[param] ?? "example"]);
  return { tool: name, args, positional: false };
}
