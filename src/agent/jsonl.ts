/**
 * The `jsonl` baseline: a text-only protocol for endpoints without native tool calling. The model
 * writes one JSON object per line — `{"type":"tool_call","name","arguments"}` or
 * `{"type":"final_answer","content"}` — and gets one observation line per call back.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { ChatMessage } from "../models/types.ts";
import type { JsonSchema, ToolDefinition } from "../tool-protocol/types.ts";
import { parseLooseJson, stripFences } from "./loose-json.ts";
import type { RunRecorder } from "./recorder.ts";
import { capTurnCalls, observationText, type ToolRunner } from "./tool-runner.ts";
import type { LoopIteration } from "./types.ts";

export type JsonlEvent =
  | { type: "tool_call"; name: string; arguments: Record<string, unknown> }
  | { type: "final_answer"; content: string };

export interface ParsedJsonl {
  events: JsonlEvent[];
  /** Lines that were not protocol objects. */
  errors: string[];
}

export function buildJsonlSystemPrompt(tools: readonly ToolDefinition[]): string {
  return [
    "You can call tools to answer the user. Reply with JSON objects, one per line, and nothing else.",
    `To call a tool: ${PROTOCOL.jsonlToolCall},"name":"<tool name>","arguments":{...}}`,
    'To answer: {"type":"final_answer","content":"<answer>"}',
    'After your tool calls you get one {"type":"observation",...} line per call; then continue.',
    "",
    "Tools (arguments as JSON Schema):",
    ...tools.map(jsonlToolLine),
  ].join("\n");
}

/**
 * `decoding: constrained`: the schema every answer is held to — one protocol object, a call to one of the
 * offered tools with that tool's arguments, or a final answer. The server turns it into a grammar.
 */
export function jsonlAnswerSchema(tools: readonly ToolDefinition[]): JsonSchema {
  const call = (tool: ToolDefinition): JsonSchema => ({
    type: "object",
    properties: { type: { const: "tool_call" }, name: { const: tool.name }, arguments: tool.inputSchema },
    required: ["type", "name", "arguments"],
    additionalProperties: false,
  });
  const final: JsonSchema = {
    type: "object",
    properties: { type: { const: "final_answer" }, content: { type: "string" } },
    required: ["type", "content"],
    additionalProperties: false,
  };
  return { anyOf: [...tools.map(call), final] };
}

/** A tool as the jsonl protocol shows it: one JSON object with its JSON Schema. */
export function jsonlToolLine(tool: ToolDefinition): string {
  return JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema });
}

/** Reads every protocol object in a reply; prose, fences and broken JSON are tolerated. Never throws. */
export function parseJsonl(text: string): ParsedJsonl {
  const events: JsonlEvent[] = [];
  const errors: string[] = [];
  const lines = stripFences(text)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  for (const line of lines) {
    const start = line.indexOf("{");
    const end = line.lastIndexOf("}");
    if (start < 0) continue; // prose between the objects
    const parsed = parseLooseJson(end > start ? line.slice(start, end + 1) : line.slice(start));
    const found = parsed.ok ? toEvents(parsed.value) : [];
    if (found.length === 0) errors.push(`not a protocol object: ${line.slice(0, 80)}`);
    events.push(...found);
  }
  if (events.length === 0 && text.includes("{")) {
    // One object spread over several lines.
    const whole = parseLooseJson(text.slice(text.indexOf("{")));
    if (whole.ok) events.push(...toEvents(whole.value));
  }
  return { events, errors: events.length === 0 && errors.length === 0 ? ["no JSON object"] : errors };
}

function toEvents(value: unknown): JsonlEvent[] {
  if (Array.isArray(value)) return value.flatMap(toEvents);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type.toLowerCase() : "";
  const name = record.name ?? record.tool;
  if ((type === "tool_call" || type === "") && typeof name === "string" && name) {
    return [{ type: "tool_call", name, arguments: asArguments(record.arguments ?? record.args ?? record.parameters) }];
  }
  const content = record.content ?? record.answer ?? record.final_answer;
  if ((type === "final_answer" || type === "") && content !== undefined) {
    return [{ type: "final_answer", content: typeof content === "string" ? content : JSON.stringify(content) }];
  }
  return [];
}

/**
 * OpenAI-style callers send arguments as a JSON string (sometimes a string of a string). Two levels at
 * most: jsonrepair turns a bare word into a JSON string of itself, which would otherwise never end.
 */
function asArguments(value: unknown, depth = 0): Record<string, unknown> {
  if (typeof value === "string") {
    const parsed = depth < 2 ? parseLooseJson(value) : undefined;
    return parsed?.ok ? asArguments(parsed.value, depth + 1) : {};
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export interface JsonlLoopInput {
  query: string;
  /** The conversation's earlier turns in the protocol's lines (history.ts), between the system prompt and the query. */
  history?: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  maxIterations: number;
  observationChars: number;
  recorder: RunRecorder;
  runner: ToolRunner;
  /** An agent definition's prompt instead of the built-in one (buildJsonlSystemPrompt). */
  systemPrompt?: string;
  /** `decoding: constrained`: every answer is held to jsonlAnswerSchema by the server. */
  constrained: boolean;
}

export interface JsonlLoopOutput {
  iterations: LoopIteration[];
  final?: string;
}

export async function runJsonlLoop(input: JsonlLoopInput): Promise<JsonlLoopOutput> {
  const messages: ChatMessage[] = [
    { role: "system", content: input.systemPrompt ?? buildJsonlSystemPrompt(input.tools) },
    ...(input.history ?? []),
    { role: "user", content: input.query },
  ];
  const iterations: LoopIteration[] = [];
  const format = input.constrained ? { format: jsonlAnswerSchema(input.tools) } : {};
  for (let index = 1; index <= input.maxIterations; index++) {
    const response = await input.recorder.chat("jsonl", {
      stage: "jsonl",
      messages,
      options: { temperature: 0, maxTokens: 512 },
      ...format,
    });
    messages.push({ role: "assistant", content: response.text });
    const parsed = parseJsonl(response.text);
    const turn = capTurnCalls(parsed.events.filter((event) => event.type === "tool_call"));
    const calls = turn.kept;
    const final = parsed.events.find((event) => event.type === "final_answer");
    if (calls.length === 0) {
      if (final) {
        iterations.push({ index, final: final.content });
        return { iterations, final: final.content };
      }
      const parseError = parsed.errors.join("; ");
      iterations.push({ index, parseError });
      messages.push({
        role: "user",
        content: protocolLine({
          type: "error",
          content: `${parseError}. Reply with JSON lines: a tool_call or a final_answer.`,
        }),
      });
      continue;
    }
    // A final answer written beside tool calls was guessed before seeing their results: ignored.
    const observations: string[] = [];
    for (const call of calls) {
      const record = await input.runner.call({
        stage: "jsonl",
        tool: call.name,
        args: call.arguments,
        prepare: false,
        guarded: false,
      });
      const observation = observationText(record, input.observationChars, input.query);
      iterations.push({ index, action: call.name, input: call.arguments, observation, callSeqs: [record.seq] });
      observations.push(protocolLine({ type: "observation", name: call.name, ok: record.ok, content: observation }));
    }
    if (turn.note) {
      (iterations.at(-1) as LoopIteration).note = turn.note;
      observations.push(protocolLine({ type: "error", content: turn.note }));
    }
    messages.push({ role: "user", content: observations.join("\n") });
  }
  return { iterations };
}

function protocolLine(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}
