/** The agent's public surface: run a query through a configuration, and the trace it returns. */

export { type RunAgentOptions, runAgent } from "./agent.ts";
export {
  AGENT_PROTOCOLS,
  type AgentDefinition,
  type AgentProtocol,
  type InjectedFile,
  TEMPLATE_VARIABLES,
  type TemplateValues,
} from "./definition.ts";
export type { DefinitionUse } from "./definition-prompt.ts";
export type { AgentEvent, AgentEventListener } from "./events.ts";
export { type ConversationTurn, type HistoryCall, turnFromResult } from "./history.ts";
export { SKILLS, type Skill } from "./skills/catalog.ts";
export * from "./types.ts";
export { isWriteTool } from "./write-guard.ts";
