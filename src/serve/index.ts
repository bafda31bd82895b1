/** The serve part's public surface: the HTTP app and MCP server over runs, reports and one-query runs, and the services behind them. */

export { agentRoutes, type QueryRunner, type RunQueryResponse } from "./agent-routes.ts";
export { createApp, VIEW_DIR } from "./app.ts";
export type { Check, ItemDetail } from "./checks.ts";
export { conversationRunner } from "./conversation-runs.ts";
export { replayWrites } from "./conversation-sessions.ts";
export { ConversationStore, type StoredConversation } from "./conversation-store.ts";
export { ApiError } from "./errors.ts";
export { DEFAULT_MAX_BODY_BYTES } from "./guard.ts";
export { createMcpSession, DEFAULT_IDLE_TIMEOUT_S, type McpServices, mcpHttpApp, SHUTDOWN } from "./mcp-server.ts";
export { benchQueryRunner } from "./query-runner.ts";
export { runLabel } from "./run-label.ts";
export { DEFAULT_HOST, listen } from "./server.ts";
export { type ComparePage, HarnessService, type ItemPage, type RunDetail, type RunListEntry } from "./service.ts";
