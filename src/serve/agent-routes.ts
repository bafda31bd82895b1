/**
 * `GET /health` and `POST /run`: one query through the agent, answered as JSON or streamed as
 * server-sent events (`event: stage` per AgentEvent, then `event: done` or `event: error`). The routes
 * know nothing of how the query runs: the caller gives a QueryRunner (the bench's, or an exported agent's).
 */

import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import type { AgentEvent } from "../agent/events.ts";
import type { ConversationTurn } from "../agent/history.ts";
import type { AgentResult } from "../agent/types.ts";
import type { ItemScore } from "../bench/scoring/score-types.ts";
import type { SessionConversation, SessionInfo } from "./conversation-sessions.ts";
import { ApiError, errorBody } from "./errors.ts";
import type { RunLabel } from "./run-label.ts";

export const SERVICE_VERSION = "0.1.0";

export const MESSAGE_ROLES = ["user", "assistant", "system", "tool"] as const;

/** One message of a conversation as TinyAgents sends it; `name` is a tool message's tool. */
export const chatInputMessageSchema = z
  .object({
    role: z.enum(MESSAGE_ROLES, { message: `role must be one of ${MESSAGE_ROLES.join(", ")}` }),
    content: z.string(),
    name: z.string().min(1).optional(),
    tool_call_id: z.string().optional(),
  })
  .strict();

export type ChatInputMessage = z.infer<typeof chatInputMessageSchema>;

/** Defaults of a run's limits (TinyAgents' RunRequest). */
export const DEFAULT_MAX_TOOL_CALLS = 8;
export const DEFAULT_TIMEOUT_S = 120;

/** The fields of a run request: the JSON body of `POST /run`, and `run_query`'s input. */
export const runQueryFields = {
  query: z.string().trim().min(1, "query must not be empty").optional(),
  model: z.string().trim().min(1, "model must not be empty"),
  config: z.string().trim().min(1).optional(),
  registry: z.string().trim().min(1).optional(),
  itemId: z.string().trim().min(1).optional(),
  dryRun: z.boolean().optional(),
  messages: z.array(chatInputMessageSchema).min(1, "messages must hold at least the user's turn").optional(),
  conversationId: z.string().trim().min(1).optional(),
  allowed_tools: z.array(z.string().trim().min(1)).min(1, "allowed_tools must name at least one tool").optional(),
  max_tool_calls: z.number().int().min(0).max(100).optional(),
  timeout_s: z.number().positive().max(3600).optional(),
};

export const runQueryRequestSchema = z.object(runQueryFields).strict();

export type RunQueryRequest = z.infer<typeof runQueryRequestSchema> & {
  /** Earlier turns of the conversation (conversation-runs.ts resolves them from messages or conversationId). */
  history?: readonly ConversationTurn[];
  /** A conversation's system messages, given to the agent as context. */
  system?: string;
};

export interface RunQueryResponse {
  answer: string;
  /**
   * Whose answers these are, as the runs list labels a run: the simulator's, the stand-in's, or a real
   * model's (the harness's service says; an exported agent's does not).
   */
  label?: RunLabel;
  result: AgentResult;
  score?: ItemScore;
  item?: { id: string; category: string };
  /** The simulator given a free query: dataset queries close to it (it answers those only). */
  closeItems?: { id: string; query: string }[];
  /** The run's limits, as given or defaulted. */
  limits?: { max_tool_calls: number; timeout_s: number };
  /** The limit that ended the run early, when one did. */
  stoppedBy?: "max_tool_calls" | "timeout_s";
  /** The stored conversation this turn belongs to (given messages or conversationId). */
  conversationId?: string;
  /** 1-based number of this turn in its conversation. */
  turn?: number;
  /** A conversation turn's servers: held from the turn before, or fresh with the stored writes replayed (conversation-sessions.ts). */
  session?: SessionInfo;
}

export interface QueryHooks {
  onEvent?: (event: AgentEvent) => void;
  signal: AbortSignal;
  /** The stored conversation this turn continues: a runner keeping state runs it on the conversation's session. */
  conversation?: SessionConversation;
}

export type QueryRunner = (request: RunQueryRequest, hooks: QueryHooks) => Promise<RunQueryResponse>;

/** Anything that leaves the service passes through this (secret redaction); identity by default. */
export type Outgoing = <T>(value: T) => T;

export function agentRoutes(runner: QueryRunner, outgoing: Outgoing = (value) => value): Hono {
  const app = new Hono();
  app.get("/health", (c) => c.json({ status: "ok", version: SERVICE_VERSION }));
  app.post("/run", async (c) => {
    const request = parseBody(runQueryRequestSchema, await readJson(c.req.raw));
    if (request.query === undefined && request.itemId === undefined && request.messages === undefined) {
      throw new ApiError(
        400,
        "BAD_REQUEST",
        "query is required (or messages, to start a conversation, or itemId, to run a dataset item's query)",
        { field: "query" },
      );
    }
    if (c.req.header("accept")?.includes("text/event-stream")) {
      return streamSSE(c, async (stream) => {
        const controller = new AbortController();
        stream.onAbort(() => controller.abort(new Error("the client went away")));
        // events are written in order; a write never waits for the next stage
        let writing = Promise.resolve();
        const send = (event: string, data: unknown) => {
          writing = writing.then(() => stream.writeSSE({ event, data: JSON.stringify(outgoing(data)) }));
        };
        try {
          const response = await runner(request, {
            onEvent: (event) => send("stage", event),
            signal: controller.signal,
          });
          send("done", response);
        } catch (error) {
          send("error", errorBody(error).body);
        }
        await writing;
      });
    }
    const response = await runner(request, { signal: c.req.raw.signal });
    return c.json(outgoing(response));
  });
  app.onError((error, c) => {
    const { status, body } = errorBody(error);
    return c.json(outgoing(body), status);
  });
  return app;
}

/** The request's JSON body; 400 when it is not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch (error) {
    throw new ApiError(400, "BAD_JSON", "the request body must be a JSON object", { cause: error });
  }
}

/** The body checked against its schema; 400 naming the first field at fault. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field =
    issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.map((part) => String(part)).join(".");
  const where = field === "" ? "the body" : field;
  throw new ApiError(400, "BAD_REQUEST", `${where}: ${issue.message}`, field === "" ? {} : { field });
}
