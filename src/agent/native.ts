/**
 * The `native` baseline: the model's own function calling (`chat({tools})`) over every connected tool,
 * a plain loop with a call limit. Arguments are sent as the model wrote them — no repairs. An answer
 * without tool calls whose text holds calls to offered tools (the server's template did not parse them,
 * text-calls.ts) is recorded; with `recover` (`native-recover`) those calls are executed as if parsed.
 */

import type { ChatMessage, ChatTool, NativeToolCall } from "../models/types.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import type { RunRecorder } from "./recorder.ts";
import { findTextCalls } from "./text-calls.ts";
import { capTurnCalls, observationText, type ToolRunner } from "./tool-runner.ts";
import type { LoopIteration, ToolCallsAsText } from "./types.ts";

export const NATIVE_SYSTEM_PROMPT = "You are a helpful assistant. Use the tools when they help. Answer briefly.";

export interface NativeLoopInput {
  query: string;
  /** The conversation's earlier turns as chat messages (history.ts), between the system prompt and the query. */
  history?: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  maxCalls: number;
  observationChars: number;
  recorder: RunRecorder;
  runner: ToolRunner;
  /** An agent definition's prompt instead of NATIVE_SYSTEM_PROMPT. */
  systemPrompt?: string;
  /** Execute the tool calls found in an answer's text (`recoverTextCalls`). */
  recover: boolean;
}

export interface NativeLoopOutput {
  iterations: LoopIteration[];
  /** Answers whose calls came back as text. */
  toolCallsAsText: ToolCallsAsText[];
  final: string;
  /** The call limit was reached and the model was asked once more, without tools. */
  limitReached: boolean;
}

export function toChatTools(tools: readonly ToolDefinition[]): ChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
}

export async function runNativeLoop(input: NativeLoopInput): Promise<NativeLoopOutput> {
  const messages: ChatMessage[] = [
    { role: "system", content: input.systemPrompt ?? NATIVE_SYSTEM_PROMPT },
    ...(input.history ?? []),
    { role: "user", content: input.query },
  ];
  const chatTools = toChatTools(input.tools);
  const iterations: LoopIteration[] = [];
  const asText: ToolCallsAsText[] = [];
  const offered = input.tools.map((tool) => tool.name);
  let calls = 0;
  for (let turn = 1; ; turn++) {
    const response = await input.recorder.chat("native", {
      stage: "native",
      messages,
      tools: chatTools,
      options: { temperature: 0 },
    });
    let content = response.text;
    let toolCalls = response.toolCalls;
    if (toolCalls.length === 0) {
      const found = findTextCalls(response.text, offered);
      const modelCallSeq = input.recorder.modelCalls.length;
      if (found) {
        const executed = input.recover;
        asText.push({ modelCallSeq, format: found.format, raw: response.text, calls: found.calls, executed });
      }
      if (!found || !input.recover) {
        return { iterations, toolCallsAsText: asText, final: response.text, limitReached: false };
      }
      // as the server would have sent it: the calls parsed out of the text, the rest as the content
      content = found.rest;
      toolCalls = found.calls.map((call, index) => ({ id: `text_call_${modelCallSeq}_${index + 1}`, ...call }));
    }
    messages.push({ role: "assistant", content, toolCalls });
    let overLimit = false;
    const capped = capTurnCalls(toolCalls);
    for (const call of capped.kept) {
      if (calls >= input.maxCalls) {
        answerCall(messages, call, "not executed: tool call limit reached");
        overLimit = true;
        continue;
      }
      calls += 1;
      const record = await input.runner.call({
        stage: "native",
        tool: call.name,
        args: call.arguments,
        prepare: false,
        guarded: false,
      });
      const observation = observationText(record, input.observationChars, input.query);
      iterations.push({ index: turn, action: call.name, input: call.arguments, observation, callSeqs: [record.seq] });
      answerCall(messages, call, observation);
    }
    if (capped.note) {
      for (const call of toolCalls.slice(capped.kept.length)) answerCall(messages, call, capped.note);
      const last = iterations.at(-1);
      if (last?.index === turn) last.note = capped.note;
    }
    if (overLimit) {
      const final = await finalWithoutTools(input, messages);
      return { iterations, toolCallsAsText: asText, final, limitReached: true };
    }
  }
}

/** Every tool call in the conversation gets its tool message (APIs reject a call left unanswered). */
function answerCall(messages: ChatMessage[], call: NativeToolCall, content: string): void {
  messages.push({
    role: "tool",
    content,
    toolName: call.name,
    ...(call.id === undefined ? {} : { toolCallId: call.id }),
  });
}

/** Past the call limit: the conversation so far, no tools offered, so the model has to answer. */
async function finalWithoutTools(input: NativeLoopInput, messages: ChatMessage[]): Promise<string> {
  const response = await input.recorder.chat("native", {
    stage: "native",
    messages: [...messages, { role: "user", content: "Tool call limit reached. Answer with what you have." }],
    options: { temperature: 0 },
  });
  return response.text;
}
