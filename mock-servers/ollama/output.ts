/**
 * What the model generates, as the stand-in measures and limits it: the thinking text first (thinking
 * models spend their token budget on it too), then the answer text, then each tool call as JSON. With
 * a limit (`num_predict` / `max_tokens`) the output stops after that many tokens: the thinking and the
 * text are cut where the budget ends, a tool call that does not fit whole is lost, and the reason is
 * "length".
 */

import type { NativeToolCall } from "../../src/models/types.ts";
import { charsOf, tokensOf } from "./tokens.ts";

export interface Output {
  thinking: string;
  text: string;
  toolCalls: NativeToolCall[];
  /** `eval_count` / `completion_tokens`. */
  tokens: number;
  reason: "stop" | "length";
}

export function measureOutput(thinking: string, text: string, toolCalls: readonly NativeToolCall[]): Output {
  const calls = toolCalls.map(callText).join("");
  return { thinking, text, toolCalls: [...toolCalls], tokens: tokensOf(thinking + text + calls), reason: "stop" };
}

/** The output stopped after `limit` tokens. */
export function cutOutput(output: Output, limit: number | undefined): Output {
  if (limit === undefined || output.tokens <= limit) return output;
  let left = charsOf(limit);
  const take = (part: string) => {
    const kept = part.slice(0, Math.max(0, left));
    left -= kept.length;
    return kept;
  };
  const thinking = take(output.thinking);
  const text = take(output.text);
  const toolCalls: NativeToolCall[] = [];
  for (const call of output.toolCalls) {
    const size = callText(call).length;
    if (size > left) break;
    toolCalls.push(call);
    left -= size;
  }
  return { thinking, text, toolCalls, tokens: limit, reason: "length" };
}

/**
 * Lenient mode: the output whole, counted as the provider counted it (plus the thinking); "length" when
 * that count reached the limit, whatever was returned.
 */
export function asProviderCounted(output: Output, providerTokens: number, limit: number | undefined): Output {
  const reason = limit !== undefined && providerTokens >= limit ? "length" : "stop";
  return { ...output, tokens: providerTokens + tokensOf(output.thinking), reason };
}

function callText(call: NativeToolCall): string {
  return JSON.stringify({ name: call.name, arguments: call.arguments });
}
