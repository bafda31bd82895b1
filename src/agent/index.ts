/** The agent's public surface: run a query through a configuration, and the trace it returns. */

export { type RunAgentOptions, runAgent } from "./agent.ts";
export { parseCallArguments, parseLooseValue } from "./call-syntax.ts";
export { type DecideInput, type DecideOutput, decide } from "./decide.ts";
export {
  AGENT_PROTOCOLS,
  type AgentDefinition,
  type AgentProtocol,
  checkTemplate,
  definitionHash,
  type InjectedFile,
  TEMPLATE_VARIABLES,
  TemplateError,
  type TemplateValues,
} from "./definition.ts";
export type { DefinitionUse } from "./definition-prompt.ts";
export { type DefinitionPromptInput, definitionPrompt } from "./definition-prompt.ts";
export type { AgentEvent, AgentEventListener } from "./events.ts";
export { type ConversationTurn, type HistoryCall, turnFromResult } from "./history.ts";
export { parseJsonl } from "./jsonl.ts";
export { parseActionInput, parseLooseJson } from "./loose-json.ts";
export { parsePlan } from "./plan-parser.ts";
export { buildPlannerPrompt, PLAN_PREFIX } from "./planner.ts";
export { parseReactOutput } from "./react.ts";
export { MAX_OUTPUT_CHARS } from "./recorder.ts";
export { parseRouterAnswer } from "./router.ts";
export { SKILLS, type Skill } from "./skills/catalog.ts";
export { cleanAnswer, type Evidence, formatEvidence } from "./solver.ts";
export { findTextCalls } from "./text-calls.ts";
export { MAX_CALLS_PER_TURN, observationText } from "./tool-runner.ts";
export * from "./types.ts";
export { isWriteTool } from "./write-guard.ts";
