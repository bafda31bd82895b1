/**
 * `POST /run` and `run_query` as conversations. `messages` (`{role, content}`, roles user, assistant,
 * system, tool; the last a user turn) start one; `conversationId` with `query` continues a stored one.
 * The turns before the query become the agent's history (agent/history.ts); the finished turn is added
 * with `turnFromResult` and the conversation written whole, so a refused request or a failed run leaves
 * what was stored as it was. A plain `query` (or `itemId`) runs alone, as before, and is not stored.
 */
import { type ConversationTurn, turnFromResult } from "../agent/history.ts";
import type { ChatInputMessage, QueryHooks, QueryRunner, RunQueryRequest, RunQueryResponse } from "./agent-routes.ts";
import type { ConversationStore, StoredConversation } from "./conversation-store.ts";
import { ApiError } from "./errors.ts";

/** The runner, with `messages` and `conversationId` resolved to a query and its history, and the turn stored. */
export function conversationRunner(runner: QueryRunner, store: ConversationStore): QueryRunner {
  return async (request, hooks) => {
    checkConversationFields(request);
    if (request.conversationId !== undefined) {
      const id = request.conversationId;
      return store.serially(id, () => continueConversation(runner, store, store.get(id), request, hooks, false));
    }
    if (request.messages !== undefined) {
      const { history, query, system } = conversationOf(request.messages);
      const now = new Date().toISOString();
      const started: StoredConversation = {
        id: store.newId(),
        createdAt: now,
        updatedAt: now,
        model: request.model,
        ...(request.config ? { config: request.config } : {}),
        ...(system ? { system } : {}),
        turns: history,
        ...(history.length > 0 ? { given: history.length } : {}),
      };
      const { messages: _messages, ...rest } = request;
      return store.serially(started.id, () =>
        continueConversation(runner, store, started, { ...rest, query }, hooks, true),
      );
    }
    return runner(request, hooks);
  };
}

async function continueConversation(
  runner: QueryRunner,
  store: ConversationStore,
  conversation: StoredConversation,
  request: RunQueryRequest,
  hooks: QueryHooks,
  isNew: boolean,
): Promise<RunQueryResponse> {
  const { conversationId: _id, ...rest } = request;
  const response = await runner(
    {
      ...rest,
      history: conversation.turns,
      ...(conversation.system ? { system: conversation.system } : {}),
    },
    {
      ...hooks,
      conversation: {
        id: conversation.id,
        turns: conversation.turns,
        ...(conversation.given ? { given: conversation.given } : {}),
      },
    },
  );
  // a turn that ended in error is answered but not kept: the user sends it again (to a new conversation's
  // id, which is stored with the turns its messages gave)
  if (!response.result.error) {
    store.save({
      ...conversation,
      updatedAt: new Date().toISOString(),
      turns: [...conversation.turns, turnFromResult(response.result)],
    });
  } else if (isNew) {
    store.save(conversation);
  }
  return { ...response, conversationId: conversation.id, turn: conversation.turns.length + 1 };
}

/** 400 naming the field: the ways of giving a turn that do not go together. */
function checkConversationFields(request: RunQueryRequest): void {
  const conversational = request.messages !== undefined || request.conversationId !== undefined;
  if (conversational && request.itemId !== undefined) {
    throw new ApiError(400, "BAD_REQUEST", "itemId runs a dataset item alone: leave out messages and conversationId", {
      field: "itemId",
    });
  }
  if (request.messages !== undefined && request.conversationId !== undefined) {
    throw new ApiError(
      400,
      "BAD_REQUEST",
      "messages start a new conversation: continue a stored one with conversationId and query instead",
      { field: "messages" },
    );
  }
  if (request.messages !== undefined && request.query !== undefined) {
    throw new ApiError(
      400,
      "BAD_REQUEST",
      "with messages, the turn to answer is their last user message: leave out query",
      {
        field: "query",
      },
    );
  }
  if (request.conversationId !== undefined && request.query === undefined) {
    throw new ApiError(400, "BAD_REQUEST", "conversationId needs query: the user's next turn", { field: "query" });
  }
}

/**
 * TinyAgents-style messages as earlier turns and the query. A user message opens a turn; assistant
 * messages are its answer; tool messages are its calls' results (tool name from `name`); system messages
 * are context for every turn. The last message must be the user's: it is the turn to answer.
 */
export function conversationOf(messages: readonly ChatInputMessage[]): {
  history: ConversationTurn[];
  query: string;
  system?: string;
} {
  const last = messages.at(-1);
  if (last?.role !== "user") {
    throw new ApiError(
      400,
      "BAD_REQUEST",
      `messages: the last message must be the user's turn to answer (it is ${last ? `"${last.role}"` : "missing"})`,
      { field: "messages" },
    );
  }
  const turns: ConversationTurn[] = [];
  const system: string[] = [];
  messages.slice(0, -1).forEach((message, index) => {
    if (message.role === "system") {
      system.push(message.content);
      return;
    }
    if (message.role === "user") {
      turns.push({ user: message.content, calls: [], answer: "" });
      return;
    }
    const turn = turns.at(-1);
    if (!turn) {
      throw new ApiError(400, "BAD_REQUEST", `messages.${index}: a ${message.role} message before any user message`, {
        field: `messages.${index}`,
      });
    }
    if (message.role === "assistant") {
      turn.answer = turn.answer === "" ? message.content : `${turn.answer}\n${message.content}`;
    } else {
      turn.calls.push({ tool: message.name ?? "tool", args: {}, ok: true, text: message.content });
    }
  });
  return { history: turns, query: last.content, ...(system.length > 0 ? { system: system.join("\n") } : {}) };
}
