/**
 * A generation request as the stand-in serves it, whichever API it came through: what Ollama's REST
 * API and the OpenAI-compatible API carry, read by the stand-in itself (ollama-request.ts,
 * openai-request.ts) into the simulator's own types.
 */

import { z } from "zod";
import type { ChatMessage, ChatRequest, ChatTool, GenerationOptions } from "../../src/models/types.ts";
import { HttpProblem } from "./http-io.ts";

export type StandinInput =
  | { kind: "complete"; prompt: string }
  | { kind: "chat"; messages: ChatMessage[]; tools?: ChatTool[] };

export interface StandinRequest {
  model: string;
  input: StandinInput;
  /** `numCtx` only from Ollama's API: the OpenAI-compatible one has no such field. */
  options: GenerationOptions;
  /** Thinking asked for (true), refused (false), or left to the model (undefined). */
  think?: boolean;
  /** How long the model stays loaded after this request; undefined: the default. */
  keepAliveMs?: number;
  stream: boolean;
  /** Constrained decoding: the answer must be JSON valid against this schema (`{}` for bare JSON mode). */
  format?: ChatRequest["format"];
}

/** The request's `model`, or Ollama's 400. */
export function modelName(model: unknown): string {
  if (typeof model !== "string" || model.trim() === "") throw new HttpProblem(400, "model is required");
  return model;
}

/** The body checked against a schema; the first problem becomes the 400's message. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new HttpProblem(400, `invalid request: ${where}${issue?.message ?? "malformed body"}`);
}

/** A tool as both APIs send it: `{type: "function", function: {name, description, parameters}}`. */
export const toolSchema = z.looseObject({
  type: z.literal("function").optional(),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** The request's tools in the simulator's terms; undefined when there are none. */
export function readTools(tools: readonly z.infer<typeof toolSchema>[] | null | undefined): ChatTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description ?? "",
    parameters: (tool.function.parameters ?? { type: "object", properties: {} }) as ChatTool["parameters"],
  }));
}
