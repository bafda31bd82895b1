/**
 * The QueryRunner of this harness: `runAgentQuery` (the one-query path `agent` uses) against the mock
 * servers, with the request checked first so a bad model or configuration is a 400 naming its field.
 */

import { conversationGold } from "../bench/conversation/gold.ts";
import { openQueryServers, runAgentQuery, UnknownItemError, UnknownToolError } from "../bench/run/agent-query.ts";
import { loadModelsConfig } from "../config/models-yaml.ts";
import { DEFAULT_MAX_TOOL_CALLS, DEFAULT_TIMEOUT_S, type QueryRunner, type RunQueryRequest } from "./agent-routes.ts";
import { ConversationSessions } from "./conversation-sessions.ts";
import { ApiError } from "./errors.ts";
import { checkConfigName, checkModelName } from "./names.ts";
import { runLabel } from "./run-label.ts";

export const DEFAULT_QUERY_CONFIG = "onsetlab";

export interface QueryRunnerOptions {
  modelsFile?: string;
  dataset?: readonly string[];
  /** Seed of the simulator (a bench run's first repeat uses 1). */
  seed?: number;
  /** Where a conversation's servers are held between its turns (default: a new set for this runner). */
  sessions?: ConversationSessions;
}

export function benchQueryRunner(options: QueryRunnerOptions = {}): QueryRunner {
  const sessions = options.sessions ?? new ConversationSessions();
  return async (request, hooks) => {
    checkRequest(request, options.modelsFile);
    const limits = {
      max_tool_calls: request.max_tool_calls ?? DEFAULT_MAX_TOOL_CALLS,
      timeout_s: request.timeout_s ?? DEFAULT_TIMEOUT_S,
    };
    const session = hooks.conversation
      ? await sessions.acquire(hooks.conversation, request.registry ?? "", () =>
          openQueryServers({
            transport: "memory",
            ...(options.dataset ? { dataset: options.dataset } : {}),
            ...(request.registry ? { registries: [request.registry] } : {}),
          }),
        )
      : undefined;
    try {
      const outcome = await runAgentQuery({
        ...(session ? { servers: session.servers } : {}),
        ...(request.query === undefined ? {} : { query: request.query }),
        ...(request.itemId === undefined ? {} : { itemId: request.itemId }),
        model: request.model,
        configName: request.config ?? DEFAULT_QUERY_CONFIG,
        seed: options.seed ?? 1,
        transport: "memory",
        ...(options.dataset ? { dataset: options.dataset } : {}),
        ...(options.modelsFile ? { modelsFile: options.modelsFile } : {}),
        ...(request.registry ? { registries: [request.registry] } : {}),
        ...(request.dryRun ? { dryRun: true } : {}),
        ...(request.history ? { history: request.history } : {}),
        turnGold: conversationGold,
        ...(request.system ? { context: request.system } : {}),
        ...(request.allowed_tools ? { allowedTools: request.allowed_tools } : {}),
        maxToolCalls: limits.max_tool_calls,
        timeoutS: limits.timeout_s,
        signal: hooks.signal,
        ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
      });
      const { result, item, score } = outcome;
      // a failed turn is not stored: its writes must not stay either, so the next turn replays what was
      if (hooks.conversation && result.error) await sessions.release(hooks.conversation.id);
      return {
        answer: result.answer,
        label: runLabel([outcome.provenance]),
        result,
        ...(score ? { score } : {}),
        ...(item ? { item: { id: item.id, category: item.category } } : {}),
        ...(outcome.closeItems ? { closeItems: outcome.closeItems.map(({ id, query }) => ({ id, query })) } : {}),
        limits,
        ...(outcome.stoppedBy ? { stoppedBy: outcome.stoppedBy } : {}),
        ...(session ? { session: session.info } : {}),
      };
    } catch (error) {
      if (hooks.conversation) await sessions.release(hooks.conversation.id);
      if (error instanceof UnknownItemError) {
        throw new ApiError(400, "UNKNOWN_ITEM", error.message, { field: "itemId", cause: error });
      }
      if (error instanceof UnknownToolError) {
        throw new ApiError(400, "UNKNOWN_TOOL", `allowed_tools: ${error.message}`, {
          field: "allowed_tools",
          cause: error,
        });
      }
      throw error;
    }
  };
}

/** 400 naming the field: an unknown model or configuration, or a switch this service lacks. */
function checkRequest(request: RunQueryRequest, modelsFile: string | undefined): void {
  const models = loadModelsConfig(modelsFile);
  checkModelName(models, request.model, "model");
  checkConfigName(models, request.config ?? DEFAULT_QUERY_CONFIG, "config");
}
