/**
 * Which pipeline stage a request comes from, so the simulator answers in that stage's protocol. The
 * `x-onsetlab-stage` header the providers send is a hint only: behind a proxy, or from any other
 * client, the stage is read from the request's shape — the prompt endings and markers the agent's
 * prompts have (a plan ends with `#E1 =`, ReAct with `Thought:`, the router asks ACTION or DIRECT, the
 * selector ends with `Tools needed:`, the solver with `Answer:`, a model playing the user is told so first),
 * native tools, or the text JSON protocol's system prompt.
 */

import type { IncomingHttpHeaders } from "node:http";
import { STAGE_HEADER } from "../../src/models/http.ts";
import { isModelStage, type ModelStage, PROTOCOL } from "../../src/models/protocol.ts";
import type { StandinInput } from "./request.ts";

/** The stage the header names, else the one the request's shape shows. */
export function stageOf(headers: IncomingHttpHeaders, input: StandinInput): ModelStage {
  const header = headers[STAGE_HEADER];
  const named = Array.isArray(header) ? header[0] : header;
  if (named && isModelStage(named)) return named;
  return inferStage(input);
}

export function inferStage(input: StandinInput): ModelStage {
  if (input.kind === "complete") return completionStage(input.prompt);
  if (input.tools && input.tools.length > 0) return "native";
  const system = input.messages.find((message) => message.role === "system")?.content ?? "";
  if (system.includes(PROTOCOL.jsonlToolCall)) return "jsonl";
  // A native conversation's last turn may come without tools (e.g. "answer with what you have").
  if (input.messages.some((message) => message.role === "tool" || message.toolCalls?.length)) return "native";
  // A completion protocol sent as chat (an OpenAI-compatible endpoint): the messages are the prompt.
  return completionStage(input.messages.map((message) => message.content).join("\n\n"));
}

/** The router's question: both of its words on one line, the action one first. */
const ROUTE_QUESTION = new RegExp(`Reply ${PROTOCOL.routeAction}\\b.*\\b${PROTOCOL.routeDirect}\\b`);

/** A text prompt's stage by its ending and markers; anything else is answered as a plain question. */
function completionStage(prompt: string): ModelStage {
  const end = prompt.trimEnd();
  if (prompt.trimStart().startsWith(PROTOCOL.userPlay)) return "user";
  if (/#E\d+ =$/.test(end)) return "planner"; // PROTOCOL.planStep(n)
  if (end === PROTOCOL.thought || end.endsWith(`\n${PROTOCOL.thought}`)) {
    return prompt.includes(`\n${PROTOCOL.earlierAttemptFailed}\n`) ? "fallback" : "react";
  }
  if (end.endsWith(PROTOCOL.answer) && ROUTE_QUESTION.test(prompt)) return "router";
  if (end.endsWith(PROTOCOL.toolsNeeded)) return "select";
  return "solver";
}
