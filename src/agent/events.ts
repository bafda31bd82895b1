/**
 * Stage events of one run, emitted as the stages happen (RunAgentOptions.onEvent): what a live view
 * shows before the run's AgentResult exists. Every payload is plain JSON; a model call carries its whole
 * prompt, as its record does.
 */

import type { ModelStage } from "../models/protocol.ts";
import type {
  AgentResult,
  AgentRunError,
  LoopIteration,
  ModelCallRecord,
  PlanStep,
  RescueRecord,
  RouteDecision,
  SkillChoice,
  ToolCallRecord,
  ToolCallStage,
  ToolScore,
} from "./types.ts";

export type AgentEvent =
  | { type: "route"; decision: RouteDecision }
  | { type: "skill"; skill: SkillChoice | null }
  | { type: "tools_shown"; available: number; shown: string[]; scores: ToolScore[] }
  | ({ type: "model_call_start" } & Pick<ModelCallRecord, "seq" | "stage" | "kind" | "prompt" | "messages" | "tools">)
  | { type: "model_call_end"; seq: number; stage: ModelStage; output: string; durationMs: number; error?: string }
  | { type: "plan"; raw: string; steps: PlanStep[]; notes: string[] }
  | { type: "wave"; round: number; steps: string[] }
  | { type: "tool_call"; stage: ToolCallStage; tool: string; args: Record<string, unknown>; stepId?: string }
  | { type: "tool_result"; call: ToolCallRecord; text: string }
  | { type: "rescue"; rescues: RescueRecord[] }
  | { type: "fallback"; reason: string }
  | { type: "turn"; stage: "react" | "fallback"; iteration: LoopIteration }
  | { type: "write_guard_block"; tool: string; args: Record<string, unknown>; stage: ToolCallStage }
  | { type: "answer"; answer: string; answeredBy: AgentResult["answeredBy"]; error?: AgentRunError };

export type AgentEventListener = (event: AgentEvent) => void;

/** The listener, or nothing: a listener that throws never breaks the run it watches. */
export function safeListener(listener: AgentEventListener | undefined): AgentEventListener {
  if (!listener) return () => {};
  return (event) => {
    try {
      listener(event);
    } catch {
      // a broken viewer must not change the trace
    }
  };
}
