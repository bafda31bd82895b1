/**
 * Ollama's REST API as the stand-in serves it: /api/generate and /api/chat (NDJSON streams by default,
 * one JSON object with `"stream": false`), /api/tags, /api/show (with capabilities), /api/ps,
 * /api/version, and `GET /` ("Ollama is running"). Durations are nanoseconds, as Ollama reports them.
 */

import { createHash } from "node:crypto";
import type { Options, Tool } from "ollama";
import {
  fromOllamaMessages,
  fromOllamaOptions,
  fromOllamaTools,
  type OllamaMetrics,
  type OllamaWireMessage,
  toOllamaToolCalls,
} from "../../src/models/ollama-wire.ts";
import type { GenerationOptions } from "../../src/models/types.ts";
import {
  type Generated,
  generate,
  hitLength,
  knownModel,
  type StandinContext,
  servedModel,
  stageOf,
  withOptions,
} from "./generate.ts";
import {
  type Exchange,
  HttpProblem,
  type RouteTable,
  readJsonBody,
  sendJson,
  sendText,
  startNdjson,
} from "./http-io.ts";
import { emitPaced, splitPieces, toNs, waitUntil } from "./pacing.ts";

/** The Ollama release whose API this imitates. */
export const OLLAMA_API_VERSION = "0.12.6";

const STARTED_AT = new Date().toISOString();

export const ollamaRoutes: RouteTable<StandinContext> = {
  "/": { GET: running, HEAD: running },
  "/api/version": { GET: async (_context, { response }) => sendJson(response, 200, { version: OLLAMA_API_VERSION }) },
  "/api/tags": { GET: tags },
  "/api/ps": { GET: ps },
  "/api/show": { POST: show },
  "/api/generate": { POST: generateText },
  "/api/chat": { POST: chat },
};

async function running(_context: StandinContext, { response }: Exchange): Promise<void> {
  sendText(response, 200, "Ollama is running");
}

async function generateText(context: StandinContext, { request, response, signal }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const { name: model } = servedModel(context, body.model, false);
  const prompt = typeof body.prompt === "string" ? body.prompt : "";
  if (prompt === "") return sendJson(response, 200, loaded(model, { response: "" }));
  const system = typeof body.system === "string" && body.system !== "" ? `${body.system}\n\n` : "";
  const options = optionsOf(body);
  const generated = await generate(
    context,
    "complete",
    { stage: stageOf(request.headers, "complete", false), prompt: system + prompt, ...withOptions(options) },
    signal,
  );
  const final = () => ({
    model,
    created_at: new Date().toISOString(),
    response: "",
    done: true,
    done_reason: hitLength(generated, options) ? "length" : "stop",
    context: [],
    ...metrics(generated),
  });
  const { text } = generated.response;
  if (body.stream === false) {
    await waitUntil(generated.started + generated.plan.totalMs, signal);
    return sendJson(response, 200, { ...final(), response: text });
  }
  const write = startNdjson(response);
  await emitPaced(splitPieces(text), generated.plan, generated.started, signal, (piece) =>
    write({ model, created_at: new Date().toISOString(), response: piece, done: false }),
  );
  write(final());
  response.end();
}

async function chat(context: StandinContext, { request, response, signal }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? fromOllamaTools(body.tools as Tool[]) : undefined;
  const { name: model } = servedModel(context, body.model, tools !== undefined);
  if (body.messages !== undefined && !Array.isArray(body.messages))
    throw new HttpProblem(400, "messages must be an array");
  const messages = fromOllamaMessages((body.messages ?? []) as OllamaWireMessage[]);
  if (messages.length === 0)
    return sendJson(response, 200, loaded(model, { message: { role: "assistant", content: "" } }));
  const options = optionsOf(body);
  const generated = await generate(
    context,
    "chat",
    {
      stage: stageOf(request.headers, "chat", tools !== undefined),
      messages,
      ...(tools ? { tools } : {}),
      ...withOptions(options),
    },
    signal,
  );
  const { text, toolCalls } = generated.response;
  const chunk = (message: Partial<OllamaWireMessage>, done: boolean) => ({
    model,
    created_at: new Date().toISOString(),
    message: { role: "assistant", content: "", ...message },
    done,
  });
  const final = () => ({
    ...chunk({}, true),
    done_reason: hitLength(generated, options) ? "length" : "stop",
    ...metrics(generated),
  });
  const calls = toolCalls.length > 0 ? { tool_calls: toOllamaToolCalls(toolCalls) } : {};
  if (body.stream === false) {
    await waitUntil(generated.started + generated.plan.totalMs, signal);
    const whole = final();
    return sendJson(response, 200, { ...whole, message: { ...whole.message, content: text, ...calls } });
  }
  const write = startNdjson(response);
  await emitPaced(splitPieces(text), generated.plan, generated.started, signal, (piece) =>
    write(chunk({ content: piece }, false)),
  );
  if (toolCalls.length > 0) write(chunk(calls, false));
  write(final());
  response.end();
}

async function tags(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, { models: context.models.names().map((name) => describeModel(context, name)) });
}

async function ps(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, {
    models: context.models.running().map(({ name, expiresAt }) => ({
      ...describeModel(context, name),
      expires_at: expiresAt.toISOString(),
      size_vram: 0,
    })),
  });
}

async function show(context: StandinContext, { request, response }: Exchange): Promise<void> {
  const body = await readJsonBody(request);
  const model = knownModel(context, body.model ?? body.name);
  sendJson(response, 200, {
    license: "",
    modelfile: `# ${model.name}: served by the OnsetLab stand-in from ${context.provider.id} (simulated)\n`,
    parameters: "",
    template: "{{ .Prompt }}",
    details: details(context),
    model_info: { "general.architecture": "standin", "standin.provider": context.provider.id },
    capabilities: context.models.supportsTools(model) ? ["completion", "tools"] : ["completion"],
    modified_at: STARTED_AT,
  });
}

function describeModel(context: StandinContext, name: string) {
  return {
    name,
    model: name,
    modified_at: STARTED_AT,
    size: 0,
    digest: createHash("sha256").update(name).digest("hex"),
    details: details(context),
  };
}

function details(context: StandinContext) {
  return {
    parent_model: "",
    format: "standin",
    family: "standin",
    families: ["standin", context.provider.id],
    parameter_size: "",
    quantization_level: "",
  };
}

/** What Ollama answers to an empty prompt or message list: the model is loaded, nothing generated. */
function loaded(model: string, extra: Record<string, unknown>) {
  return { model, created_at: new Date().toISOString(), ...extra, done: true, done_reason: "load" };
}

function optionsOf(body: Record<string, unknown>): GenerationOptions {
  return fromOllamaOptions(
    body.options as Partial<Options> | undefined,
    body.keep_alive as string | number | undefined,
  );
}

function metrics(generated: Generated): Required<OllamaMetrics> {
  const { plan, response } = generated;
  return {
    total_duration: toNs(plan.totalMs),
    load_duration: toNs(plan.loadMs),
    prompt_eval_count: response.usage.promptTokens,
    prompt_eval_duration: toNs(plan.promptEvalMs),
    eval_count: response.usage.completionTokens,
    eval_duration: toNs(plan.evalMs),
  };
}
