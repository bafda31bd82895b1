/** What the viewer's browser code may load from the agent: the types of a trace and of the agent's events. */

export type { AgentEvent } from "./events.ts";
export type { AgentResult, LoopIteration, ModelCallRecord, ToolCallRecord } from "./types.ts";
