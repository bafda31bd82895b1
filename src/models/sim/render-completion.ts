/**
 * Text answers of the completion protocols — router word, the selector's tool names, ReWOO plan lines (continuing after the
 * prompt's `#E1 =`), a ReAct turn, the solver's answer — with the request-level formatting mistakes
 * as small models make them in each.
 */

import { PROTOCOL } from "../protocol.ts";
import type { SimAction } from "./action.ts";
import { CALL_FLAWS, callSyntax, json } from "./call-format.ts";
import type { RequestErrorType } from "./error-types.ts";
import type { WrittenCall } from "./mistakes.ts";
import { pick, type Random } from "./random.ts";

/** The request-level mistakes that only change how the answer is written. */
export type Formatting = Extract<RequestErrorType, "prose_around_call" | "malformed_syntax" | "duplicate_steps">;

export function renderRouter(action: SimAction, formatting: Formatting | undefined, random: Random): string {
  const word = action.kind === "route" ? action.word : "DIRECT";
  if (formatting === "malformed_syntax") return pick(random, ["Act.", "Maybe", "TOOL"]) as string;
  if (formatting === "prose_around_call") {
    return word === "ACTION" ? "ACTION: this request needs one of the tools." : "DIRECT: I can answer this myself.";
  }
  return word;
}

/** The selector's answer: the tool names, one a line (`none` when it names none). */
export function renderSelection(action: SimAction, formatting: Formatting | undefined, random: Random): string {
  const names = action.kind === "calls" ? [...new Set(action.calls.map((call) => call.tool))] : [];
  if (formatting === "malformed_syntax") return names.length > 0 ? `[${names.join(" ")}` : "<|im_end|>";
  if (formatting === "duplicate_steps" && names.length > 0) names.push(pick(random, names) as string);
  const list = names.length > 0 ? names.join("\n") : "none";
  return formatting === "prose_around_call" ? `The request needs these tools:\n${list}\nThat should be enough.` : list;
}

export function renderPlan(action: SimAction, formatting: Formatting | undefined, random: Random): string {
  if (action.kind !== "calls") {
    const text = " No tool is needed; I can answer this directly.";
    if (formatting === "malformed_syntax") return " <|im_end|>";
    return formatting === "prose_around_call" ? `${text}\nThe task does not need any tool.` : text;
  }
  const flawed = formatting === "malformed_syntax" ? Math.floor(random() * action.calls.length) : -1;
  const flaw = pick(random, CALL_FLAWS);
  const steps = action.calls.map((call, index) => callSyntax(call, index === flawed ? flaw : undefined));
  if (formatting === "duplicate_steps") steps.push(pick(random, steps) as string);
  const lines = steps.map((step, index) => (index === 0 ? ` ${step}` : `${PROTOCOL.planStep(index + 1)} ${step}`));
  if (formatting === "prose_around_call") {
    lines[0] = ` To do this I will call ${steps[0]}`;
    lines.push("This plan completes the task.");
  }
  return lines.join("\n");
}

export function renderReact(action: SimAction, formatting: Formatting | undefined, random: Random): string {
  if (action.kind !== "calls") {
    const answer = action.kind === "final" ? action.answer : "";
    if (formatting === "malformed_syntax") {
      return pick(random, [` I now know the answer.\nFinal answer - ${answer}`, ` The answer is: ${answer}`]) as string;
    }
    const thought =
      formatting === "prose_around_call"
        ? " Let me sum up what I found. I now know the answer."
        : " I now know the answer.";
    return `${thought}\n${PROTOCOL.finalAnswer} ${answer}`;
  }
  let call = action.calls[0] as WrittenCall;
  if (formatting === "duplicate_steps" && action.repeatable.length > 0)
    call = pick(random, action.repeatable) as WrittenCall;
  const block = reactAction(call, formatting === "malformed_syntax" ? random : undefined);
  const thought = ` I need to use ${call.tool} for this.`;
  if (formatting === "duplicate_steps" && action.repeatable.length === 0) return `${thought}\n${block}\n${block}`;
  if (formatting === "prose_around_call") return `${thought}\n${block}\nI will wait for the result.`;
  return `${thought}\n${block}`;
}

/** `Action:` and `Action Input:` lines; positional arguments go in call form on the Action line. */
function reactAction(call: WrittenCall, malform: Random | undefined): string {
  if (call.positional) return `${PROTOCOL.action} ${callSyntax(call)}`;
  const input = json(Object.fromEntries(call.args));
  if (!malform) return `${PROTOCOL.action} ${call.tool}\n${PROTOCOL.actionInput} ${input}`;
  return pick(malform, [
    `I will call ${call.tool} with ${input}.`,
    `Action: ${call.tool}\nInput: ${input}`,
    `Action: ${call.tool}\nAction Input: ${input.slice(0, -1)}`,
  ]) as string;
}

export function renderSolver(action: SimAction, formatting: Formatting | undefined): string {
  const answer = action.kind === "final" ? action.answer : "";
  if (formatting === "prose_around_call") return `Based on the results, ${answer} (note: taken from the tool data)`;
  if (formatting === "malformed_syntax") return `${answer} The other result was`;
  return answer;
}
