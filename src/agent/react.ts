/**
 * The ReAct protocol: its prompt and a tolerant reader of Thought / Action / Action Input / Final Answer.
 * `react_protocol: json` asks for `Action:` + a JSON `Action Input:`; `call` (OnsetLab) for one
 * `Action: tool(param="value")` line, and its scratchpad repeats each turn as the model wrote it.
 * The reader accepts both forms either way.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { GenerationOptions } from "../models/types.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { parseCallArguments } from "./call-syntax.ts";
import { parseActionInput } from "./loose-json.ts";
import { describeTool, describeToolAbstract } from "./tool-schema.ts";
import type { PlanExamples, ReactProtocol } from "./types.ts";

export interface ReactTurn {
  thought: string;
  action: string;
  /** The Action Input as written (JSON text). */
  input: string;
  observation: string;
  /** The model's output for the turn, as written (the `call` protocol's scratchpad repeats it). */
  raw?: string;
}

export interface ReactPromptInput {
  query: string;
  tools: readonly ToolDefinition[];
  skillRules?: string;
  /** The failed plan, for the fallback: what was tried and what went wrong. */
  errorContext?: string;
  turns: readonly ReactTurn[];
  /** A conversation's earlier turns (history.ts): transcripts for the ReAct strategy, the pipeline's block for the fallback. */
  history?: string;
  /** Default `json`. */
  protocol?: ReactProtocol;
  /** Tool lines with concrete values (default) or OnsetLab's placeholders. */
  examples?: PlanExamples;
  /** An agent definition's prompt in place of the tools, format and rules: the question and turns follow it. */
  instructions?: string;
}

const FORMAT: Record<ReactProtocol, string[]> = {
  json: [
    "Action: one tool name from the list",
    'Action Input: the arguments as JSON, e.g. {"param": "value"}',
    "Observation: the tool's result (it is given to you)",
    "... (Thought / Action / Action Input / Observation can repeat)",
  ],
  call: [
    'Action: one call of a listed tool, e.g. tool_name(param="value")',
    "Observation: the tool's result (it is given to you)",
    "... (Thought / Action / Observation can repeat)",
  ],
};

export function buildReactPrompt(input: ReactPromptInput): string {
  const protocol = input.protocol ?? "json";
  const format = [
    "Use this format:",
    "Thought: what to do next",
    ...FORMAT[protocol],
    `${PROTOCOL.thought} I know the answer`,
    `${PROTOCOL.finalAnswer} the answer to the question`,
  ].join("\n");
  const scratchpad = input.turns
    .map((turn) =>
      protocol === "call"
        ? `Thought: ${(turn.raw ?? `${turn.thought}\nAction: ${turn.action}`).trim()}\nObservation: ${turn.observation}\n`
        : `Thought: ${turn.thought}\nAction: ${turn.action}\nAction Input: ${turn.input}\nObservation: ${turn.observation}\n`,
    )
    .join("");
  const question = `Question: ${input.query}\n${scratchpad}${PROTOCOL.thought}`;
  if (input.instructions !== undefined) return `${input.instructions}\n\n${question}`;
  const describe = input.examples === "placeholders" ? describeToolAbstract : describeTool;
  const sections = [
    ["Answer the question. You can use these tools:", ...input.tools.map(describe)].join("\n"),
    format,
    input.skillRules,
    input.history ? `${PROTOCOL.conversationSoFar}\n${input.history}` : undefined,
    input.errorContext
      ? `${PROTOCOL.earlierAttemptFailed}\n${input.errorContext}\nFix what failed; do not repeat calls that succeeded.`
      : undefined,
    question,
  ];
  return sections.filter((section): section is string => Boolean(section)).join("\n\n");
}

export function reactOptions(protocol: ReactProtocol = "json"): GenerationOptions {
  if (protocol === "call") return { temperature: 0, maxTokens: 300, stop: ["Observation:", "\n\n\n"] };
  return { temperature: 0, maxTokens: 256, stop: ["\nObservation:", "Observation:"] };
}

export interface ParsedReact {
  thought: string;
  action?: string;
  /** Parsed arguments: an object, or a bare value for the tool's main parameter. */
  input?: unknown;
  inputText?: string;
  final?: string;
  /** Neither an action nor a final answer could be read. */
  error?: string;
}

// Every pattern starts at a line start or a fixed word and has no two adjacent repeats that can take the
// same characters (`[ \t]*\d*[ \t]*` backtracked quadratically on a run of spaces), so each is linear.
const ACTION = /(?:^|\n)[ \t]*\**Action\**[ \t]*(?:\d+[ \t]*)?:\**/i;
const ACTION_INPUT = /(?:^|\n)[ \t]*\**Action[ \t]*Input\**[ \t]*(?:\d+[ \t]*)?:\**/i;
// Found from its word, then widened over the stars before it: `\**Final` tried every star of a long run.
const FINAL = /Final[ \t]*Answer\**[ \t]*:\**/i;
const SECTION_END = /\n[ \t]*\**(?:Observation|Thought|Action|Final[ \t]*Answer)\b/i;

/** Reads one model turn. An Action before a Final Answer wins (the answer after it would be imagined). */
export function parseReactOutput(text: string): ParsedReact {
  const action = ACTION.exec(text);
  const final = findFinal(text);
  const firstMarker = Math.min(action?.index ?? text.length, final?.index ?? text.length);
  const thought = text
    .slice(0, firstMarker)
    .replace(/^\s*Thought\s*:\s*/i, "")
    .trim();

  if (final && (!action || final.index < action.index)) {
    return { thought, final: sectionAfter(text, final.end) };
  }
  if (!action) return { thought, error: "no Action or Final Answer" };

  const line = (text.slice(action.index + action[0].length).split("\n")[0] ?? "").trim();
  const inputMarker = ACTION_INPUT.exec(text.slice(action.index + action[0].length));
  const callForm = /^[`"'*]*([A-Za-z_][\w.-]*)\s*\(/.exec(line);
  if (callForm && !inputMarker) {
    const call = parseCallArguments(line, callForm[0].length - 1);
    return { thought, action: callForm[1] as string, input: call.named, inputText: line.slice(callForm[0].length - 1) };
  }
  const name = cleanToolName(line);
  if (!name) return { thought, error: "empty Action" };
  if (!inputMarker) return { thought, action: name, input: {}, inputText: "" };
  const inputStart = action.index + action[0].length + inputMarker.index + inputMarker[0].length;
  const inputText = sectionAfter(text, inputStart);
  return { thought, action: name, input: parseActionInput(inputText).value, inputText };
}

/** `Final Answer:` with the `**` before it (`**Final Answer:**`): where it starts and ends. */
function findFinal(text: string): { index: number; end: number } | undefined {
  const found = FINAL.exec(text);
  if (!found) return undefined;
  let index = found.index;
  while (index > 0 && text[index - 1] === "*") index -= 1;
  return { index, end: found.index + found[0].length };
}

/** The text of a section: up to the next Observation / Thought / Action / Final Answer marker. */
function sectionAfter(text: string, start: number): string {
  const rest = text.slice(start);
  const end = SECTION_END.exec(rest);
  return (end ? rest.slice(0, end.index) : rest).trim();
}

const NAME_LEAD = /[`"'*[\s]/;
const NAME_TRAIL = /[`"'*\].,:;\s]/;

/** The first word of an Action line, quotes, stars and brackets around it trimmed (by index: linear). */
function cleanToolName(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && NAME_LEAD.test(line[start] as string)) start += 1;
  while (end > start && NAME_TRAIL.test(line[end - 1] as string)) end -= 1;
  return line.slice(start, end).split(/\s+/)[0]?.trim() ?? "";
}
