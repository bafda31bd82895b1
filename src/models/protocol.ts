/**
 * The text protocol between the agent's stage prompts and a model, written once: the stage names and
 * the markers the agent's prompts end with or ask for. The agent builds its prompts with them
 * (src/agent), the simulator writes its answers with them (sim/), and the stand-in Ollama reads a
 * request's stage from them (mock-servers/ollama/stage.ts). A model playing a conversation's user
 * (src/bench/conversation/model-user.ts) gets a prompt of its own, the `user` stage. Each side parses
 * with its own code: a shared parser would hide a disagreement the end-to-end tests are there to find.
 */

/** Which pipeline stage a request comes from; the simulator answers in that stage's protocol. */
export const MODEL_STAGES = [
  "router",
  "select",
  "planner",
  "react",
  "fallback",
  "solver",
  "jsonl",
  "native",
  "user",
] as const;

export type ModelStage = (typeof MODEL_STAGES)[number];

export function isModelStage(name: string): name is ModelStage {
  return (MODEL_STAGES as readonly string[]).includes(name);
}

export const PROTOCOL = {
  /** A plan step, `#E<n> = tool(...)`; the planner's prompt ends inside the first, so its first token is a tool. */
  planStep: (n: number): string => `#E${n} =`,
  /** ReAct: the prompt ends with `Thought:`; a turn is `Action:` (and `Action Input:` in the json protocol). */
  thought: "Thought:",
  action: "Action:",
  actionInput: "Action Input:",
  observation: "Observation:",
  finalAnswer: "Final Answer:",
  /** The fallback's ReAct prompt says what failed under this header. */
  earlierAttemptFailed: "An earlier attempt failed:",
  /** The router's two words; its prompt, like the solver's, ends with `Answer:`. */
  routeAction: "ACTION",
  routeDirect: "DIRECT",
  answer: "Answer:",
  /** The tool selector's prompt ends with this line; the answer is tool names, one a line. */
  toolsNeeded: "Tools needed:",
  /** The block of a conversation's earlier turns in the text prompts (planner CONTEXT, router, solver). */
  conversationSoFar: "Conversation so far (earlier turns and their results, which the task may refer to):",
  /** How the text JSON protocol's system prompt shows a tool call. */
  jsonlToolCall: '{"type":"tool_call"',
  /**
   * The user-play prompt (the `user` stage), line by line: it opens with `userPlay`; its script has a
   * `userTurn(n)` line per turn, with a `userAnswer` line under a turn that may need a question; then
   * `userOnTurn(n)` names the turn the agent asked on, and a `userNoAnswer` line what to say when the
   * script has no answer for it. The agent's question is the last message.
   */
  userPlay: "You play the user talking to an assistant.",
  userTurn: (n: number): string => `Turn ${n}: you say:`,
  userAnswer: "If the assistant asks for something missing here, you answer:",
  userOnTurn: (n: number): string => `You are on turn ${n}.`,
  userNoAnswer: "If your script gives this turn no answer, you answer:",
} as const;
