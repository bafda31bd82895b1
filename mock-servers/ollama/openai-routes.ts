/**
 * The OpenAI-compatible API as Ollama serves it: /v1/chat/completions (tool calls with arguments as a
 * JSON string, finish_reason "tool_calls"; SSE streaming whose first chunk carries `delta.role`, tool
 * calls in fragments keyed by index, a usage chunk on `stream_options.include_usage`, `data: [DONE]`;
 * a thinking model's reasoning in `reasoning`), /v1/completions and /v1/models.
 */

import { dropUndefined } from "../../src/json.ts";
import type { NativeToolCall } from "../../src/models/types.ts";
import { type Generated, knownModel, type StandinContext, serve } from "./generate.ts";
import { type Exchange, type RouteTable, readJsonBody, sendJson, startSse } from "./http-io.ts";
import { readChatCompletion, readCompletion } from "./openai-request.ts";
import { emitPaced, outputPieces, splitPieces, waitUntil } from "./pacing.ts";

export const openAIRoutes: RouteTable<StandinContext> = {
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/completions": { POST: completions },
  "/v1/models": { GET: models },
  "/v1/models/*": { GET: model },
};

let sequence = 0;

async function chatCompletions(context: StandinContext, exchange: Exchange): Promise<void> {
  const request = readChatCompletion(await readJsonBody(exchange.request));
  const { response, signal } = exchange;
  const head = {
    id: `chatcmpl-${++sequence}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: "fp_ollama",
  };
  await serve(context, exchange, request, {
    // Not reached through this API (messages must not be empty); answered as an empty completion.
    loaded: () =>
      sendJson(response, 200, {
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "stop" }],
      }),
    answered: async (generated) => {
      const { text, thinking, toolCalls } = generated.output;
      const calls = openAIToolCalls(toolCalls);
      // Like Ollama: any tool call makes it "tool_calls", even when the output was cut after it.
      const finishReason = calls.length > 0 ? "tool_calls" : generated.output.reason;
      if (!request.stream) {
        await waitUntil(generated.started + generated.plan.totalMs, signal);
        const message = dropUndefined({
          role: "assistant",
          content: text,
          reasoning: thinking || undefined,
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
      chunk({ role: "assistant", content: "" });
      await emitPaced(outputPieces(thinking, text), generated.plan, generated.started, signal, (piece) =>
        chunk(piece.thinking ? { reasoning: piece.thinking } : { content: piece.text }),
      );
      calls.forEach((call, index) => {
        // The id, type and name first, then the arguments string in fragments, all keyed by index.
        chunk({
          tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
        });
        for (const fragment of halves(call.function.arguments)) {
          chunk({ tool_calls: [{ index, function: { arguments: fragment } }] });
        }
      });
      chunk({}, finishReason);
      if (request.includeUsage) {
        sse.send({ ...head, object: "chat.completion.chunk", choices: [], usage: usageOf(generated) });
      }
      sse.done();
    },
  });
}

async function completions(context: StandinContext, exchange: Exchange): Promise<void> {
  const request = readCompletion(await readJsonBody(exchange.request));
  const { response, signal } = exchange;
  const head = () => ({
    id: `cmpl-${++sequence}`,
    object: "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: "fp_ollama",
  });
  const choice = (text: string, finish: string | null) => ({ text, index: 0, logprobs: null, finish_reason: finish });
  await serve(context, exchange, request, {
    loaded: () => sendJson(response, 200, { ...head(), choices: [choice("", "stop")] }),
    answered: async (generated) => {
      const { text, reason } = generated.output;
      if (!request.stream) {
        await waitUntil(generated.started + generated.plan.totalMs, signal);
        return sendJson(response, 200, { ...head(), choices: [choice(text, reason)], usage: usageOf(generated) });
      }
      const sse = startSse(response);
      const first = head();
      await emitPaced(splitPieces(text), generated.plan, generated.started, signal, (piece) =>
        sse.send({ ...first, choices: [choice(piece, null)] }),
      );
      sse.send({ ...first, choices: [choice("", reason)] });
      if (request.includeUsage) sse.send({ ...first, choices: [], usage: usageOf(generated) });
      sse.done();
    },
  });
}

async function models(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, { object: "list", data: context.models.names().map(modelObject) });
}

/** GET /v1/models/{model}: the model, or the 404. */
async function model(context: StandinContext, { request, response }: Exchange): Promise<void> {
  const name = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname.slice("/v1/models/".length));
  sendJson(response, 200, modelObject(knownModel(context, name).name));
}

function modelObject(id: string) {
  return { id, object: "model", created: Math.floor(Date.now() / 1000), owned_by: "library" };
}

/** OpenAI's tool calls: arguments as a JSON string (the raw text when it never was JSON). */
function openAIToolCalls(calls: readonly NativeToolCall[]) {
  return calls.map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: "function" as const,
    function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) },
  }));
}

function usageOf(generated: Generated) {
  const { promptTokens, output } = generated;
  return { prompt_tokens: promptTokens, completion_tokens: output.tokens, total_tokens: promptTokens + output.tokens };
}

function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((part) => part !== "");
}
