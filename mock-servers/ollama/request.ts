/**
 * A generation request as the stand-in serves it, whichever API it came through: what Ollama's REST
 * API and the OpenAI-compatible API carry, read by the stand-in itself (ollama-request.ts,
 * openai-request.ts) into the simulator's own types.
 */

import type { z } from "zod";
import type { ChatMessage, ChatTool, GenerationOptions } from "../../src/models/types.ts";
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
}

/** The body checked against a schema; the first problem becomes the 400's message. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  throw new HttpProblem(400, `invalid request: ${where}${issue?.message ?? "malformed body"}`);
}

/** Tool arguments as an object: parsed from a JSON string, or `{}` with the raw text kept. */
export function argumentsObject(value: unknown): { arguments: Record<string, unknown>; rawArguments?: string } {
  if (typeof value !== "string") {
    return { arguments: isRecord(value) ? value : {} };
  }
  try {
    const parsed: unknown = JSON.parse(value);
    if (isRecord(parsed)) return { arguments: parsed };
  } catch {
    // kept raw below
  }
  return { arguments: {}, rawArguments: value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
