/**
 * Ollama's REST API requests as its documentation describes them (/api/generate, /api/chat): `model`,
 * `prompt` + `system` or `messages` (role, content, tool_calls with object arguments, tool_name), `tools`
 * ({type: "function", function: {name, description, parameters}}), `options` (num_ctx, num_predict,
 * temperature, stop, seed …), `think`, `keep_alive` (seconds or a duration like "5m"), `stream` (default
 * true). Unknown fields are ignored, as Ollama ignores them.
 */

import { z } from "zod";
import { dropUndefined } from "../../src/json.ts";
import type { ChatMessage, GenerationOptions } from "../../src/models/types.ts";
import { HttpProblem } from "./http-io.ts";
import { modelName, parseBody, readTools, type StandinRequest, toolSchema } from "./request.ts";

const optionsSchema = z
  .looseObject({
    num_ctx: z.int().positive().optional(),
    num_predict: z.int().optional(),
    temperature: z.number().optional(),
    stop: z.array(z.string()).optional(),
    seed: z.int().optional(),
  })
  .optional();

const thinkSchema = z.union([z.boolean(), z.enum(["low", "medium", "high"])]).optional();

const keepAliveSchema = z.union([z.number(), z.string()]).optional();

const generateSchema = z.looseObject({
  model: z.string().optional(),
  prompt: z.string().optional(),
  system: z.string().optional(),
  stream: z.boolean().optional(),
  think: thinkSchema,
  options: optionsSchema,
  keep_alive: keepAliveSchema,
});

const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({
    index: z.int().optional(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
});

const messageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullish(),
  thinking: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_name: z.string().optional(),
  tool_call_id: z.string().optional(),
});

const chatSchema = generateSchema.omit({ prompt: true, system: true }).extend({
  messages: z.array(messageSchema).optional(),
  tools: z.array(toolSchema).optional(),
  // "json" (any JSON) or a JSON Schema the answer must follow
  format: z.union([z.literal("json"), z.record(z.string(), z.unknown())]).optional(),
});

export function readGenerate(body: unknown): StandinRequest {
  const request = parseBody(generateSchema, body);
  const system = request.system ? `${request.system}\n\n` : "";
  return {
    ...common(request),
    input: { kind: "complete", prompt: request.prompt ? system + request.prompt : "" },
  };
}

export function readChat(body: unknown): StandinRequest {
  const request = parseBody(chatSchema, body);
  const tools = readTools(request.tools);
  const messages = (request.messages ?? []).map((message) =>
    dropUndefined<ChatMessage>({
      role: message.role,
      content: message.content ?? "",
      toolCalls: message.tool_calls?.length
        ? message.tool_calls.map((call) =>
            dropUndefined({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? {} }),
          )
        : undefined,
      toolName: message.tool_name,
      toolCallId: message.tool_call_id,
    }),
  );
  const format = request.format === "json" ? {} : request.format;
  return {
    ...common(request),
    input: { kind: "chat", messages, ...(tools ? { tools } : {}) },
    ...(format ? { format } : {}),
  };
}

function common(request: z.infer<typeof generateSchema>): Omit<StandinRequest, "input"> {
  const options = request.options ?? {};
  const keepAliveMs = request.keep_alive === undefined ? undefined : keepAliveToMs(request.keep_alive);
  return dropUndefined({
    model: modelName(request.model),
    options: dropUndefined<GenerationOptions>({
      temperature: options.temperature,
      seed: options.seed,
      // A negative num_predict means "no limit".
      maxTokens: options.num_predict !== undefined && options.num_predict >= 0 ? options.num_predict : undefined,
      numCtx: options.num_ctx,
      stop: options.stop,
      keepAlive: request.keep_alive === undefined ? undefined : String(request.keep_alive),
    }),
    think: request.think === undefined ? undefined : request.think !== false,
    keepAliveMs,
    stream: request.stream !== false,
  });
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** keep_alive: a number of seconds or a Go duration ("5m", "1h30m"); negative keeps the model forever. */
export function keepAliveToMs(value: number | string): number {
  if (typeof value === "number") return value * 1000;
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const sign = trimmed.startsWith("-") ? -1 : 1;
  const parts = [...trimmed.replace(/^[-+]/, "").matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join("") !== trimmed.replace(/^[-+]/, "")) {
    throw new HttpProblem(400, `time: invalid duration "${value}"`);
  }
  return sign * parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_MS[part[2] ?? "s"] ?? 1000), 0);
}
