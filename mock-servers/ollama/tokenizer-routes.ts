/**
 * The tokenizer endpoints another OpenAI-compatible server has beside its API, served when the
 * `tokenizer` behaviour names one (Ollama has none: with `none`, as by default, they are 404 like any
 * unknown path):
 * - `vllm`: `POST /tokenize` with `model` and `prompt`, or `messages` (and `tools`) with the chat
 *   template applied → `{count, max_model_len, tokens}`;
 * - `llamacpp`: `POST /tokenize` with `content` (`add_special`, `with_pieces`) → `{tokens}`, and
 *   `POST /apply-template` with a chat request's messages and tools → `{prompt}`.
 * A token is the stand-in's own (4 characters, tokens.ts), and the chat template is the stand-in's
 * rendering (render.ts), so a count equals the `prompt_eval_count` / `prompt_tokens` the
 * same request gets when it fits its window. The stand-in's vocabulary has no BOS: `add_special` adds
 * nothing.
 */

import { hash32 } from "../../src/random.ts";
import { promptTokensOf, windowOf } from "./context-window.ts";
import { knownModel, type StandinContext } from "./generate.ts";
import { type Exchange, HttpProblem, type RouteTable, readJsonBody, sendJson, sendText } from "./http-io.ts";
import { readChatInput } from "./openai-request.ts";
import { renderStandinPrompt } from "./render.ts";
import { modelName, type StandinInput } from "./request.ts";
import { contextLengthOf } from "./served-models.ts";
import { CHARS_PER_TOKEN } from "./tokens.ts";

export const tokenizerRoutes: RouteTable<StandinContext> = {
  "/tokenize": { POST: tokenize },
  "/apply-template": { POST: applyTemplate },
};

async function tokenize(context: StandinContext, exchange: Exchange): Promise<void> {
  const { tokenizer } = context.behaviour;
  context.stats.tokenized();
  if (tokenizer === "none") return notFound(exchange);
  const body = await readJsonBody(exchange.request);
  if (tokenizer === "llamacpp") {
    // llama.cpp answers a body without `content` with no tokens
    const content = typeof body.content === "string" ? body.content : "";
    const pieces = piecesOf(content);
    const tokens =
      body.with_pieces === true ? pieces.map((piece) => ({ id: tokenId(piece), piece })) : pieces.map(tokenId);
    return sendJson(exchange.response, 200, { tokens });
  }
  const model = knownModel(context, modelName(body.model));
  const input: StandinInput =
    "messages" in body ? readChatInput(body) : { kind: "complete", prompt: promptOf(body.prompt) };
  const count = promptTokensOf(input);
  sendJson(exchange.response, 200, {
    count,
    max_model_len: windowOf(undefined, context.behaviour.defaultNumCtx, contextLengthOf(model)),
    tokens: piecesOf(renderStandinPrompt(input)).map(tokenId),
  });
}

async function applyTemplate(context: StandinContext, exchange: Exchange): Promise<void> {
  context.stats.tokenized();
  if (context.behaviour.tokenizer !== "llamacpp") return notFound(exchange);
  const input = readChatInput(await readJsonBody(exchange.request));
  sendJson(exchange.response, 200, { prompt: renderStandinPrompt(input) });
}

/** What Ollama (and any server without the endpoint) answers. */
function notFound({ response }: Exchange): void {
  sendText(response, 404, "404 page not found");
}

function promptOf(prompt: unknown): string {
  if (typeof prompt !== "string") throw new HttpProblem(400, "invalid request: give `prompt` or `messages`");
  return prompt;
}

/** The stand-in's tokens: 4 characters each, the last one shorter. */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += CHARS_PER_TOKEN)
    pieces.push(text.slice(start, start + CHARS_PER_TOKEN));
  return pieces;
}

/** A token id for a piece: the same piece, the same id, within a vocabulary the size of Qwen2.5's. */
function tokenId(piece: string): number {
  return hash32(piece) % 151_936;
}
