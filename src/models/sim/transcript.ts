/**
 * What a request shows of the run so far: the tool calls already made (and whether each worked), and
 * the tool data a grounded answer may quote. Read per protocol from the prompt or the messages.
 */

import type { ChatMessage } from "../types.ts";

export interface SeenCall {
  tool: string;
  ok: boolean;
}

export interface Transcript {
  calls: SeenCall[];
  /** The tool results shown (successful ones), as one text. */
  data: string;
  /** The prompt carries a failed earlier attempt to fix (the ReAct fallback). */
  errorToFix: boolean;
}

const EMPTY: Transcript = { calls: [], data: "", errorToFix: false };

const FALLBACK_START = "An earlier attempt failed:\n";
const FALLBACK_END = "\nFix what failed; do not repeat calls that succeeded.";
const REACT_TURN = /Action: (.*)\nAction Input: .*\nObservation: ([\s\S]*?)(?=\nThought:|$)/g;

/** ReAct (and the fallback): the failed plan's steps, then the scratchpad after the question. */
export function reactTranscript(prompt: string, question: string | undefined): Transcript {
  const calls: SeenCall[] = [];
  const data: string[] = [];
  const context = between(prompt, FALLBACK_START, FALLBACK_END);
  for (const line of (context ?? "").split("\n")) {
    const step = /^#E\d+ = ([A-Za-z_][\w.-]*)/.exec(line);
    if (!step?.[1]) continue;
    const ok = line.indexOf(" -> ok: ");
    calls.push({ tool: step[1], ok: ok >= 0 });
    if (ok >= 0) data.push(line.slice(ok + " -> ok: ".length));
  }
  const marker = question === undefined ? "\nQuestion: " : `Question: ${question}\n`;
  const at = question === undefined ? prompt.lastIndexOf(marker) : prompt.indexOf(marker);
  const scratchpad = at < 0 ? "" : prompt.slice(at + marker.length);
  for (const turn of scratchpad.matchAll(REACT_TURN)) {
    const action = (turn[1] ?? "").trim();
    const observation = turn[2] ?? "";
    const ok = !/^(ERROR:|Unknown tool|Invalid format)/.test(observation);
    calls.push({ tool: action, ok });
    if (ok) data.push(observation);
  }
  return { calls, data: data.join("\n"), errorToFix: context !== undefined };
}

/** The solver sees tool results only: the block between `Tool results:` and `Answer:`. */
export function solverTranscript(prompt: string): Transcript {
  return { ...EMPTY, data: between(prompt, "Tool results:\n", "\n\nAnswer:") ?? "" };
}

/** jsonl: the observation lines the loop fed back, one JSON object each. */
export function jsonlTranscript(messages: readonly ChatMessage[]): Transcript {
  const calls: SeenCall[] = [];
  const data: string[] = [];
  const firstUser = messages.findIndex((message) => message.role === "user");
  for (const message of messages.slice(firstUser + 1)) {
    if (message.role !== "user") continue;
    for (const line of message.content.split("\n")) {
      const observation = parseObservation(line);
      if (!observation) continue;
      calls.push({ tool: observation.name, ok: observation.ok });
      if (observation.ok) data.push(observation.content);
    }
  }
  return { calls, data: data.join("\n"), errorToFix: false };
}

function parseObservation(line: string): { name: string; ok: boolean; content: string } | undefined {
  if (!line.trim().startsWith("{")) return undefined;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.type !== "observation" || typeof value.name !== "string") return undefined;
    return { name: value.name, ok: value.ok === true, content: String(value.content ?? "") };
  } catch {
    return undefined; // not an observation line
  }
}

/** native: every tool message, named by the call it answers (by id, else by position). */
export function nativeTranscript(messages: readonly ChatMessage[]): Transcript {
  const calls: SeenCall[] = [];
  const data: string[] = [];
  let pending: { id?: string; name: string }[] = [];
  for (const message of messages) {
    if (message.role === "assistant") pending = (message.toolCalls ?? []).map((call) => ({ ...call }));
    if (message.role !== "tool") continue;
    const index = pending.findIndex((call) => message.toolCallId !== undefined && call.id === message.toolCallId);
    const answered = pending.splice(Math.max(index, 0), 1)[0];
    const ok = !/^(ERROR:|not executed:)/.test(message.content);
    calls.push({ tool: message.toolName ?? answered?.name ?? "", ok });
    if (ok) data.push(message.content);
  }
  return { calls, data: data.join("\n"), errorToFix: false };
}

export function emptyTranscript(): Transcript {
  return { ...EMPTY, calls: [] };
}

function between(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start);
  if (from < 0) return undefined;
  const to = text.indexOf(end, from + start.length);
  return text.slice(from + start.length, to < 0 ? undefined : to);
}
