/**
 * The mistakes the simulator can make (DESIGN §6). Call-level mistakes are drawn once per tool call the
 * output writes; request-level ones once per model request. Within a level at most one fires, so each
 * type's realised frequency is exactly its effective rate and two mistakes never mask each other.
 */

export const CALL_ERROR_TYPES = [
  "wrong_tool",
  "hallucinated_tool",
  "missing_required_param",
  "wrong_param_name",
  "merged_owner_repo",
  "wrong_value",
  "positional_args",
] as const;

export const REQUEST_ERROR_TYPES = [
  "tool_call_on_direct",
  "direct_answer_when_tool_needed",
  "prose_around_call",
  "malformed_syntax",
  "duplicate_steps",
] as const;

export type CallErrorType = (typeof CALL_ERROR_TYPES)[number];
export type RequestErrorType = (typeof REQUEST_ERROR_TYPES)[number];
export type SimErrorType = CallErrorType | RequestErrorType;

export const SIM_ERROR_TYPES: readonly SimErrorType[] = [...CALL_ERROR_TYPES, ...REQUEST_ERROR_TYPES];
