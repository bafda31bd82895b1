/**
 * The reasoning a thinking model writes before its answer (`message.thinking`, `thinking`, or
 * `reasoning` on the OpenAI-compatible API). The simulator has none, so the stand-in writes a fixed-size
 * one about the request: about THINKING_TOKENS tokens, which count against the output limit as they do
 * on a real thinking model — a small `num_predict` with thinking on leaves little or nothing for the
 * answer.
 */

import type { ModelStage } from "../../src/models/protocol.ts";
import type { StandinInput } from "./request.ts";
import { charsOf } from "./tokens.ts";

export const THINKING_TOKENS = 200;

export function thinkingFor(stage: ModelStage, input: StandinInput): string {
  const asked =
    input.kind === "complete"
      ? input.prompt
      : ([...input.messages].reverse().find((message) => message.role === "user")?.content ?? "");
  const topic = asked.trim().split("\n").at(-1)?.slice(0, 160) ?? "";
  const lines = [
    `The request ends with: "${topic}".`,
    stage === "user"
      ? "It asks me to play the user of a conversation, so the answer is what that user would say."
      : `It reads like the ${stage} step of a tool-using assistant, so the answer has to follow that format exactly.`,
    "First I check which tools are offered and which parameters each one requires.",
    "Then I match the values in the request to those parameters, without inventing any ids or names.",
    "If something is missing I should say so instead of guessing.",
  ];
  let text = lines.join(" ");
  while (text.length < charsOf(THINKING_TOKENS)) text += ` ${lines.slice(2).join(" ")}`;
  return text.slice(0, charsOf(THINKING_TOKENS));
}
