/**
 * OpenAI chat/completions and completions requests as OpenAI's API reference describes them, with what
 * Ollama's compatibility layer reads of them: `messages` (system / developer / user / assistant / tool;
 * content a string, null or text parts; assistant `tool_calls` with arguments as a JSON string; tool
 * messages with `tool_call_id`), `tools`, `max_tokens` or `max_completion_tokens`, `temperature`, `stop`
 * (a string or a list), `seed`, `stream` (default false), `stream_options.include_usage`,
 * `reasoning_effort` ("none" turns thinking off). There is no `num_ctx`: the server's window applies.
 */

import { z } from "zod";
import { dropUndefined } from "../../src/json.ts";
import type { ChatMessage, GenerationOptions } from "../../src/models/types.ts";
import { HttpProblem } from "./http-io.ts";
import { modelName, parseBody, readTools, type StandinInput, type StandinRequest, toolSchema } from "./request.ts";

const samplingSchema = z.looseObject({
  model: z.string().optional(),
  max_tokens: z.int().nullish(),
  max_completion_tokens: z.int().nullish(),
  temperature: z.number().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  seed: z.int().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  reasoning_effort: z.string().nullish(),
});

const textPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const messageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(textPartSchema)]).nullish(),
  name: z.string().optional(),
  tool_call_id: z.string().optional(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        type: z.literal("function").optional(),
        function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
      }),
    )
    .nullish(),
});

const chatSchema = samplingSchema.extend({
  messages: z.array(messageSchema).min(1, "messages must be a non-empty array"),
  tools: z.array(toolSchema).nullish(),
  // json_object: any JSON; json_schema: a JSON Schema the answer must follow
  response_format: z
    .discriminatedUnion("type", [
      z.looseObject({ type: z.literal("text") }),
      z.looseObject({ type: z.literal("json_object") }),
      z.looseObject({
        type: z.literal("json_schema"),
        json_schema: z.looseObject({
          name: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    ])
    .nullish(),
});

const completionSchema = samplingSchema.extend({
  prompt: z.union([z.string(), z.array(z.string()).min(1)]),
});

export function readChatCompletion(body: unknown): StandinRequest & { includeUsage: boolean } {
  const request = parseBody(chatSchema, body);
  const format = responseFormat(request.response_format);
  return { ...common(request), input: chatInput(request), ...(format ? { format } : {}) };
}

function responseFormat(format: z.infer<typeof chatSchema>["response_format"]): StandinRequest["format"] {
  if (!format || format.type === "text") return undefined;
  return format.type === "json_schema" ? (format.json_schema.schema ?? {}) : {};
}

/** A chat's messages and tools, read as chat/completions reads them (what vLLM's and llama.cpp's tokenizer endpoints take). */
export function readChatInput(body: unknown): Extract<StandinInput, { kind: "chat" }> {
  return chatInput(parseBody(chatSchema, body));
}

function chatInput(request: z.infer<typeof chatSchema>): Extract<StandinInput, { kind: "chat" }> {
  const tools = readTools(request.tools);
  const messages = request.messages.map((message) =>
    dropUndefined<ChatMessage>({
      role: message.role === "developer" ? "system" : message.role,
      content: textOf(message.content),
      toolCalls: message.tool_calls?.length
        ? message.tool_calls.map((call) =>
            dropUndefined({
              id: call.id,
              name: call.function.name,
              arguments: argumentsOf(call.function.arguments),
            }),
          )
        : undefined,
      toolCallId: message.role === "tool" ? message.tool_call_id : undefined,
      toolName: message.role === "tool" ? message.name : undefined,
    }),
  );
  return { kind: "chat", messages, ...(tools ? { tools } : {}) };
}

export function readCompletion(body: unknown): StandinRequest & { includeUsage: boolean } {
  const request = parseBody(completionSchema, body);
  const prompt = Array.isArray(request.prompt) ? (request.prompt[0] ?? "") : request.prompt;
  return { ...common(request), input: { kind: "complete", prompt } };
}

function common(request: z.infer<typeof samplingSchema>): Omit<StandinRequest, "input"> & { includeUsage: boolean } {
  const maxTokens = request.max_tokens ?? request.max_completion_tokens ?? undefined;
  const effort = request.reasoning_effort ?? undefined;
  if (effort !== undefined && !["none", "low", "medium", "high"].includes(effort)) {
    throw new HttpProblem(400, `invalid reasoning_effort "${effort}": use none, low, medium or high`);
  }
  return dropUndefined({
    model: modelName(request.model),
    options: dropUndefined<GenerationOptions>({
      temperature: request.temperature ?? undefined,
      maxTokens,
      stop: typeof request.stop === "string" ? [request.stop] : (request.stop ?? undefined),
      seed: request.seed ?? undefined,
    }),
    think: effort === undefined ? undefined : effort !== "none",
    stream: request.stream === true,
    includeUsage: request.stream_options?.include_usage === true,
  });
}

/** A message's text: the string, or its text parts joined. */
function textOf(content: string | { type: string; text?: string }[] | null | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

/** An assistant tool call's arguments: a JSON object in a string, or Ollama's 400. */
function argumentsOf(text: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? "");
  } catch {
    throw new HttpProblem(400, "invalid tool call arguments");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpProblem(400, "invalid tool call arguments");
  }
  return parsed as Record<string, unknown>;
}
