/**
 * The OpenAI-compatible API as Ollama serves it: /v1/chat/completions (tool calls with arguments as a
 * JSON string, finish_reason "tool_calls", SSE streaming with tool-call fragments keyed by index),
 * /v1/completions and /v1/models.
 */

import { dropUndefined } from "../../src/models/json.ts";
import {
  fromOpenAIMessages,
  fromOpenAISampling,
  fromOpenAITools,
  type OpenAIMessage,
  type OpenAISampling,
  type OpenAITool,
  toOpenAIToolCalls,
} from "../../src/models/openai-wire.ts";
import type { GenerationOptions } from "../../src/models/types.ts";
import {
  type Generated,
  generate,
  hitLength,
  type StandinContext,
  servedModel,
  stageOf,
  withOptions,
} from "./generate.ts";
import { type Exchange, HttpProblem, type RouteTable, readJsonBody, sendJson, startSse } from "./http-io.ts";
import { emitPaced, splitPieces, waitUntil } from "./pacing.ts";

export const openAIRoutes: RouteTable<StandinContext> = {
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/completions": { POST: completions },
  "/v1/models": { GET: models },
};

let sequence = 0;

async function chatCompletions(context: StandinContext, { request, response, signal }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const tools =
    Array.isArray(body.tools) && body.tools.length > 0 ? fromOpenAITools(body.tools as OpenAITool[]) : undefined;
  const { name: model } = servedModel(context, body.model, tools !== undefined);
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new HttpProblem(400, "messages must be a non-empty array");
  }
  const options = samplingOf(body);
  const generated = await generate(
    context,
    "chat",
    {
      stage: stageOf(request.headers, "chat", tools !== undefined),
      messages: fromOpenAIMessages(body.messages as OpenAIMessage[]),
      ...(tools ? { tools } : {}),
      ...withOptions(options),
    },
    signal,
  );
  const { text, toolCalls } = generated.response;
  const calls = toOpenAIToolCalls(toolCalls);
  const finishReason = calls.length > 0 ? "tool_calls" : hitLength(generated, options) ? "length" : "stop";
  const head = {
    id: `chatcmpl-${++sequence}`,
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: "fp_ollama",
  };
  if (body.stream !== true) {
    await waitUntil(generated.started + generated.plan.totalMs, signal);
    const message = dropUndefined({
      role: "assistant",
      content: text,
      tool_calls: calls.length > 0 ? calls : undefined,
    });
    return sendJson(response, 200, {
      ...head,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage: usageOf(generated),
    });
  }
  const sse = startSse(response);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse.send({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  await emitPaced(splitPieces(text), generated.plan, generated.started, signal, (piece) =>
    chunk({ role: "assistant", content: piece }),
  );
  calls.forEach((call, index) => {
    // Like llama.cpp: id and name first, the arguments string in fragments, all keyed by index.
    chunk({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
    });
    for (const fragment of halves(call.function.arguments ?? "")) {
      chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
    }
  });
  chunk({}, finishReason);
  if (includeUsage(body))
    sse.send({ ...head, object: "chat.completion.chunk", choices: [], usage: usageOf(generated) });
  sse.done();
}

async function completions(context: StandinContext, { request, response, signal }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const { name: model } = servedModel(context, body.model, false);
  const prompt = Array.isArray(body.prompt) ? body.prompt[0] : body.prompt;
  if (typeof prompt !== "string") throw new HttpProblem(400, "prompt must be a string");
  const options = samplingOf(body);
  const generated = await generate(
    context,
    "complete",
    { stage: stageOf(request.headers, "complete", false), prompt, ...withOptions(options) },
    signal,
  );
  const finishReason = hitLength(generated, options) ? "length" : "stop";
  const head = { id: `cmpl-${++sequence}`, object: "text_completion", created: Math.floor(Date.now() / 1000), model };
  const choice = (text: string, finish: string | null) => ({ text, index: 0, logprobs: null, finish_reason: finish });
  if (body.stream !== true) {
    await waitUntil(generated.started + generated.plan.totalMs, signal);
    return sendJson(response, 200, {
      ...head,
      system_fingerprint: "fp_ollama",
      choices: [choice(generated.response.text, finishReason)],
      usage: usageOf(generated),
    });
  }
  const sse = startSse(response);
  await emitPaced(splitPieces(generated.response.text), generated.plan, generated.started, signal, (piece) =>
    sse.send({ ...head, choices: [choice(piece, null)] }),
  );
  sse.send({ ...head, choices: [choice("", finishReason)] });
  if (includeUsage(body)) sse.send({ ...head, choices: [], usage: usageOf(generated) });
  sse.done();
}

async function models(context: StandinContext, { response }: Exchange): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  sendJson(response, 200, {
    object: "list",
    data: context.models.names().map((id) => ({ id, object: "model", created, owned_by: "library" })),
  });
}

function samplingOf(body: Record<string, unknown>): GenerationOptions {
  const sampling = body as OpenAISampling & { max_completion_tokens?: number };
  return fromOpenAISampling({ ...sampling, max_tokens: sampling.max_tokens ?? sampling.max_completion_tokens });
}

function includeUsage(body: Record<string, unknown>): boolean {
  return (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
}

function usageOf(generated: Generated) {
  const { promptTokens, completionTokens } = generated.response.usage;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((part) => part !== "");
}
