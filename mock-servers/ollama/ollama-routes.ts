/**
 * Ollama's REST API as the stand-in serves it: /api/generate and /api/chat (NDJSON streams by default,
 * one JSON object with `"stream": false`), /api/tags, /api/show (details, model_info with the context
 * length, capabilities), /api/ps, /api/version (with the stand-in's identification), and `GET /`
 * ("Ollama is running"). Durations are nanoseconds; like Ollama, fields that are zero are left out.
 */

import { dropUndefined } from "../../src/json.ts";
import type { NativeToolCall } from "../../src/models/types.ts";
import { type Generated, knownModel, type StandinContext, serve } from "./generate.ts";
import { type Exchange, type RouteTable, readJsonBody, sendJson, sendText, startNdjson } from "./http-io.ts";
import { readChat, readGenerate } from "./ollama-request.ts";
import { emitPaced, outputPieces, toNs, waitUntil } from "./pacing.ts";
import { capabilitiesOf, contextLengthOf, digestOf, type ServedModel, sizeOf } from "./served-models.ts";

/**
 * The Ollama release whose API this imitates: the first that has everything the stand-in sends —
 * tool call ids on /api/chat (and `tool_call_id` on tool messages) arrived in 0.12.10; `thinking` /
 * `think` (0.9), `capabilities` in /api/show, `context_length` in /api/ps and `reasoning` on /v1 before.
 */
export const OLLAMA_API_VERSION = "0.12.10";

const STARTED_AT = new Date().toISOString();

export const ollamaRoutes: RouteTable<StandinContext> = {
  "/": { GET: running, HEAD: running },
  "/api/version": { GET: version },
  "/api/tags": { GET: tags },
  "/api/ps": { GET: ps },
  "/api/show": { POST: show },
  "/api/generate": { POST: generateText },
  "/api/chat": { POST: chat },
};

async function running(_context: StandinContext, { response }: Exchange): Promise<void> {
  sendText(response, 200, "Ollama is running");
}

async function version(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, {
    version: OLLAMA_API_VERSION,
    standin: { profile: context.provider.id, real: context.real },
  });
}

async function generateText(context: StandinContext, exchange: Exchange): Promise<void> {
  const arrived = performance.now();
  const request = readGenerate(await readJsonBody(exchange.request));
  const { response, signal } = exchange;
  const head = () => ({ model: request.model, created_at: new Date().toISOString() });
  await serve(context, exchange, request, {
    loaded: (reason) => sendJson(response, 200, { ...head(), response: "", done: true, done_reason: reason }),
    answered: async (generated) => {
      const { text, thinking } = generated.output;
      const final = () => ({
        ...head(),
        response: "",
        done: true,
        done_reason: generated.output.reason,
        ...metrics(generated, arrived),
      });
      if (!request.stream) {
        await waitUntil(generated.started + generated.plan.totalMs, signal);
        return sendJson(response, 200, { ...final(), response: text, ...(thinking ? { thinking } : {}) });
      }
      const write = startNdjson(response);
      await emitPaced(outputPieces(thinking, text), generated.plan, generated.started, signal, (piece) =>
        write({
          ...head(),
          response: piece.text,
          ...(piece.thinking ? { thinking: piece.thinking } : {}),
          done: false,
        }),
      );
      write(final());
      response.end();
    },
  });
}

async function chat(context: StandinContext, exchange: Exchange): Promise<void> {
  const arrived = performance.now();
  const request = readChat(await readJsonBody(exchange.request));
  const { response, signal } = exchange;
  const chunk = (message: Record<string, unknown>, done: boolean) => ({
    model: request.model,
    created_at: new Date().toISOString(),
    message: { role: "assistant", content: "", ...message },
    done,
  });
  await serve(context, exchange, request, {
    loaded: (reason) => sendJson(response, 200, { ...chunk({}, true), done_reason: reason }),
    answered: async (generated) => {
      const { text, thinking, toolCalls } = generated.output;
      const final = () => ({
        ...chunk({}, true),
        done_reason: generated.output.reason,
        ...metrics(generated, arrived),
      });
      const calls = toolCalls.length > 0 ? { tool_calls: ollamaToolCalls(toolCalls) } : {};
      if (!request.stream) {
        await waitUntil(generated.started + generated.plan.totalMs, signal);
        const whole = final();
        const message = { ...whole.message, content: text, ...(thinking ? { thinking } : {}), ...calls };
        return sendJson(response, 200, { ...whole, message });
      }
      const write = startNdjson(response);
      await emitPaced(outputPieces(thinking, text), generated.plan, generated.started, signal, (piece) =>
        write(chunk(piece.thinking ? { thinking: piece.thinking } : { content: piece.text }, false)),
      );
      if (toolCalls.length > 0) write(chunk(calls, false));
      write(final());
      response.end();
    },
  });
}

/** Ollama's tool calls: arguments as an object, `index` inside `function`. */
function ollamaToolCalls(calls: readonly NativeToolCall[]) {
  return calls.map((call, index) =>
    dropUndefined({ id: call.id, function: { index, name: call.name, arguments: call.arguments } }),
  );
}

async function tags(context: StandinContext, { response }: Exchange): Promise<void> {
  const models = context.models.names().map((name) => context.models.find(name) ?? { name });
  sendJson(response, 200, { models: models.map(describeModel) });
}

async function ps(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, {
    models: context.models.running().map(({ name, numCtx, expiresAt }) => {
      const model = context.models.find(name) ?? { name };
      const size = sizeOf(model);
      return {
        ...describeModel(model),
        expires_at: expiresAt.toISOString(),
        size_vram: size,
        context_length: numCtx,
      };
    }),
  });
}

async function show(context: StandinContext, { request, response }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const name = body.model ?? body.name;
  if (typeof name !== "string" || name === "") return sendJson(response, 400, { error: "model is required" });
  const model = knownModel(context, name);
  const arch = architectureOf(model);
  sendJson(response, 200, {
    license: "",
    modelfile: `# ${model.name}: served by the OnsetLab stand-in from ${context.provider.id} (simulated)\n`,
    parameters: "",
    template: "{{ .Prompt }}",
    details: details(model),
    model_info: {
      "general.architecture": arch,
      "general.parameter_count": parameterCount(model),
      [`${arch}.context_length`]: contextLengthOf(model),
    },
    capabilities: capabilitiesOf(model),
    // as newer Ollama servers do: a lenient stand-in lists a model in /api/tags only once it was used,
    // and the request cache keys on the digest from the first call on
    digest: digestOf(model.name),
    modified_at: STARTED_AT,
  });
}

function describeModel(model: ServedModel) {
  return {
    name: model.name,
    model: model.name,
    modified_at: STARTED_AT,
    size: sizeOf(model),
    digest: digestOf(model.name),
    details: details(model),
  };
}

function details(model: ServedModel) {
  const family = architectureOf(model);
  return {
    parent_model: "",
    format: "gguf",
    family,
    families: [family],
    parameter_size: model.parameterSize ?? "",
    quantization_level: model.quantizationLevel ?? "",
  };
}

function architectureOf(model: ServedModel): string {
  return model.family ?? "standin";
}

function parameterCount(model: ServedModel): number {
  const billions = Number.parseFloat(model.parameterSize ?? "");
  return Number.isFinite(billions) ? Math.round(billions * 1e9) : 0;
}

/** Ollama's timing and count fields; a zero is left out, as Ollama's `omitempty` leaves it out. */
function metrics(generated: Generated, arrived: number) {
  const { plan, promptTokens, output } = generated;
  const fields = {
    total_duration: toNs(Math.max(performance.now() - arrived, plan.totalMs)),
    load_duration: toNs(plan.loadMs),
    prompt_eval_count: promptTokens,
    prompt_eval_duration: toNs(plan.promptEvalMs),
    eval_count: output.tokens,
    eval_duration: toNs(plan.evalMs),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value > 0));
}
