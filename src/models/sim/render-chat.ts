/**
 * Answers of the chat protocols: jsonl lines (`tool_call` / `final_answer` objects) and native tool
 * calls, with the formatting mistakes each protocol sees from small models — prose lines, broken JSON,
 * a call written as text instead of a native tool call.
 */

import type { NativeToolCall } from "../types.ts";
import type { SimAction } from "./action.ts";
import { argumentsJson, callSyntax, json } from "./call-format.ts";
import type { WrittenCall } from "./mistakes.ts";
import { pick, type Random } from "./random.ts";
import type { Formatting } from "./render-completion.ts";

export interface ChatAnswer {
  text: string;
  toolCalls: NativeToolCall[];
}

export function renderJsonl(action: SimAction, formatting: Formatting | undefined, random: Random): string {
  if (action.kind !== "calls") {
    const answer = action.kind === "final" ? action.answer : "";
    if (formatting === "malformed_syntax") return answer;
    const line = json({ type: "final_answer", content: answer });
    return formatting === "prose_around_call" ? `Here is my answer.\n${line}` : line;
  }
  const lines = action.calls.map((call) =>
    json({ type: "tool_call", name: call.tool, arguments: argumentsJson(call) }),
  );
  if (formatting === "duplicate_steps") lines.push(pick(random, lines) as string);
  if (formatting === "malformed_syntax") {
    const index = Math.floor(random() * lines.length);
    lines[index] = malformedJsonl(action.calls[index] as WrittenCall, lines[index] as string, random);
  }
  if (formatting === "prose_around_call") lines.unshift("Sure, I will call the tools now.");
  return lines.join("\n");
}

/** A call as Python text, under a wrong key, or cut before its closing braces. */
function malformedJsonl(call: WrittenCall, line: string, random: Random): string {
  return pick(random, [
    callSyntax(call),
    json({ type: "tool_call", function: call.tool, arguments: argumentsJson(call) }),
    line.slice(0, -2),
  ]) as string;
}

export function renderNative(
  action: SimAction,
  formatting: Formatting | undefined,
  random: Random,
  /** A call's id by its index (nativeCallIds). */
  callId: (index: number) => string,
): ChatAnswer {
  if (action.kind !== "calls") {
    const answer = action.kind === "final" ? action.answer : "";
    if (formatting === "prose_around_call") return { text: `Sure! ${answer}`, toolCalls: [] };
    if (formatting === "malformed_syntax") {
      return { text: `{"name": "final_answer", "arguments": {"text": ${json(answer)}`, toolCalls: [] };
    }
    return { text: answer, toolCalls: [] };
  }
  const calls = [...action.calls];
  if (formatting === "duplicate_steps") calls.push(pick(random, calls) as WrittenCall);
  if (formatting === "malformed_syntax") {
    // The model wrote the call as text the server could not parse: no tool call comes back.
    const call = calls[0] as WrittenCall;
    const body = json({ name: call.tool, arguments: Object.fromEntries(call.args) });
    return { text: `<tool_call>\n${body.slice(0, -1)}`, toolCalls: [] };
  }
  const toolCalls = calls.map((call, index) => ({
    id: callId(index),
    name: call.tool,
    arguments: Object.fromEntries(call.args),
  }));
  return { text: formatting === "prose_around_call" ? "Let me check that with the tools." : "", toolCalls };
}
