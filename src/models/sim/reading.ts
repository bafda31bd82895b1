/**
 * Reads one request the way the simulator needs it: which protocol, which dataset item, which tools
 * the prompt shows, which skill rules it carries, and the run so far. Pure: the same request gives the
 * same reading.
 */

import type { JsonSchema } from "../../tool-protocol/types.ts";
import { PROTOCOL } from "../protocol.ts";
import type { ChatMessage, ChatTool, ModelStage } from "../types.ts";
import type { GoldIndex, SimGoldItem } from "./gold.ts";
import { chatSeedText, type SeedText } from "./seed.ts";
import {
  readJsonlSystemTools,
  readToolLinesIn,
  readToolSection,
  type ShownTool,
  toolFromSchema,
} from "./shown-tools.ts";
import {
  emptyTranscript,
  jsonlTranscript,
  nativeTranscript,
  reactTranscript,
  solverTranscript,
  type Transcript,
} from "./transcript.ts";
import { readUserScript, type UserScript } from "./user-play.ts";

export type SimRequest =
  | { kind: "complete"; stage: ModelStage; prompt: string }
  | {
      kind: "chat";
      stage: ModelStage;
      messages: readonly ChatMessage[];
      tools?: readonly ChatTool[];
      /** Constrained decoding's schema (ChatRequest.format). */
      format?: JsonSchema;
    };

export interface SimReading {
  /** The request's stage: which protocol the answer is written in. */
  protocol: ModelStage;
  /** What the seed hashes: the prompt, or the messages and tool names in canonical form. */
  text: SeedText;
  item?: SimGoldItem;
  tools: ShownTool[];
  /** Titles of the skill blocks in the prompt (`GitHub rules:` → `GitHub`). */
  skillTitles: string[];
  transcript: Transcript;
  /** Tools may be called in this answer (native without tools must answer in text). */
  canCall: boolean;
  /** Characters of a conversation's earlier turns shown before the current one (0 for a single-turn item). */
  historyChars: number;
  /** The user stage: the script the prompt gives the user (no dataset item is looked up). */
  userScript?: UserScript;
}

export function readRequest(request: SimRequest, gold: GoldIndex): SimReading {
  if (request.kind === "chat" && (request.stage === "jsonl" || request.stage === "native")) {
    return readChat(request, gold);
  }
  // A completion protocol, possibly sent as chat (an OpenAI-compatible endpoint): the messages are the prompt.
  const prompt =
    request.kind === "complete" ? request.prompt : request.messages.map((message) => message.content).join("\n\n");
  const protocol = request.stage;
  if (protocol === "user") return userPlayReading(prompt);
  // A conversation's short turn texts (a reply such as "acme/api") can occur in tool data: the turn is
  // looked for only in the prompt before the data (the question, and the history before it).
  const item = gold.find(gold.hasTurns ? beforeToolData(protocol, prompt) : prompt);
  return {
    protocol,
    text: prompt,
    ...(item ? { item } : {}),
    tools: completionTools(protocol, prompt),
    skillTitles: skillTitles(prompt),
    transcript: completionTranscript(protocol, prompt, item),
    canCall: protocol !== "solver" && protocol !== "router",
    historyChars: item?.turnOf === undefined ? 0 : completionHistoryChars(prompt, item.query),
  };
}

/**
 * A user-play prompt holds a conversation's turns, so the gold would find one: the user's side is read
 * from the prompt's script alone, as a real model reads it, and no tool or item is in play.
 */
function userPlayReading(prompt: string): SimReading {
  return {
    protocol: "user",
    text: prompt,
    tools: [],
    skillTitles: [],
    transcript: emptyTranscript(),
    canCall: false,
    historyChars: 0,
    userScript: readUserScript(prompt),
  };
}

const REACT_TOOLS_HEADING = "You can use these tools:\n";
/** The selector's tool lines: `- name: what it does`. */
const SELECT_TOOL_LINE = /^- ([^\s:]+): /gm;

/**
 * A completion prompt's earlier turns: the agent's conversation block, or (the ReAct strategy)
 * the finished transcripts before the current question.
 */
function completionHistoryChars(prompt: string, query: string): number {
  const block = prompt.indexOf(PROTOCOL.conversationSoFar);
  if (block >= 0) {
    const end = prompt.indexOf("\n\n", block);
    return (end < 0 ? prompt.length : end) - block;
  }
  const first = prompt.indexOf("Question: ");
  const current = prompt.lastIndexOf(`Question: ${query}`);
  return first >= 0 && current > first ? current - first : 0;
}

/** The prompt up to the tool data the protocol shows after the question (solver results, a ReAct scratchpad). */
function beforeToolData(protocol: ModelStage, prompt: string): string {
  if (protocol === "solver") {
    const at = prompt.indexOf("\n\nTool results:");
    return at < 0 ? prompt : prompt.slice(0, at);
  }
  if (protocol === "react" || protocol === "fallback") {
    const at = prompt.lastIndexOf("\nQuestion: ");
    const end = at < 0 ? -1 : prompt.indexOf("\n", at + 1);
    return end < 0 ? prompt : prompt.slice(0, end);
  }
  return prompt;
}

function completionTools(protocol: ModelStage, prompt: string): ShownTool[] {
  if (protocol === "planner") return readToolSection(prompt, "\nTools:\n");
  if (protocol === "react" || protocol === "fallback") {
    if (prompt.includes(REACT_TOOLS_HEADING)) return readToolSection(prompt, REACT_TOOLS_HEADING);
    // no built-in heading (an agent definition's own prompt): the tool lines before the question
    const question = prompt.lastIndexOf("\nQuestion: ");
    return readToolLinesIn(question < 0 ? prompt : prompt.slice(0, question));
  }
  if (protocol === "select") {
    return [...prompt.matchAll(SELECT_TOOL_LINE)].map((match) => ({
      name: match[1] as string,
      examples: {},
      enums: {},
    }));
  }
  if (protocol === "router") {
    const line = /^Available tools: (.*)$/m.exec(prompt)?.[1] ?? "";
    return line
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => ({ name, examples: {}, enums: {} }));
  }
  return [];
}

function completionTranscript(protocol: ModelStage, prompt: string, item: SimGoldItem | undefined): Transcript {
  if (protocol === "react" || protocol === "fallback") return reactTranscript(prompt, item?.query);
  if (protocol === "solver") return solverTranscript(prompt);
  return emptyTranscript();
}

/** Titles of the prompt's `<title> rules:` lines (a line ends at \n, \r, U+2028 or U+2029). */
function skillTitles(prompt: string): string[] {
  const titles: string[] = [];
  for (let at = prompt.indexOf(SKILL_SUFFIX); at >= 0; at = prompt.indexOf(SKILL_SUFFIX, at + 1)) {
    const after = at + SKILL_SUFFIX.length;
    if (after < prompt.length && !isLineEnd(prompt.charCodeAt(after))) continue;
    let start = at;
    while (start > 0 && !isLineEnd(prompt.charCodeAt(start - 1))) start -= 1;
    if (start < at) titles.push(prompt.slice(start, at));
  }
  return titles;
}

const SKILL_SUFFIX = " rules:";

function isLineEnd(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

function readChat(request: Extract<SimRequest, { kind: "chat" }>, gold: GoldIndex): SimReading {
  // The query is the first user message; tool results fed back later could quote another item's query.
  // In a conversation the turns before are history: the current turn starts at the last user message.
  const current = currentTurnStart(request.messages);
  const turn = current > 0 ? gold.find(userText(request.messages)) : undefined;
  // (userText leaves out the fed-back observations: tool data may hold a short turn text)
  const item =
    (turn?.turnOf !== undefined ? turn : undefined) ??
    firstFound(request.messages, gold) ??
    gold.find(request.messages.map((message) => message.content).join("\n"));
  const messages = current > 0 && item?.turnOf !== undefined ? request.messages.slice(current) : request.messages;
  const jsonl = request.stage === "jsonl";
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  const tools = jsonl ? readJsonlSystemTools(system) : (request.tools ?? []).map(toolFromSchema);
  return {
    protocol: request.stage,
    text: chatSeedText(
      request.messages,
      request.tools?.map((tool) => tool.name),
    ),
    ...(item ? { item } : {}),
    tools,
    skillTitles: [],
    transcript: jsonl ? jsonlTranscript(messages) : nativeTranscript(messages),
    canCall: jsonl || tools.length > 0,
    historyChars:
      item?.turnOf === undefined || current <= 0
        ? 0
        : request.messages
            .slice(0, current)
            .filter((message) => message.role !== "system")
            .reduce((sum, message) => sum + message.content.length, 0),
  };
}

/** Index of the last user message that is not a fed-back observation (a jsonl protocol line); -1: none. */
function currentTurnStart(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ChatMessage;
    if (message.role === "user" && !isObservation(message.content)) {
      // the first user message is the only turn: no history before it
      return messages.findIndex((candidate) => candidate.role === "user") === index ? 0 : index;
    }
  }
  return -1;
}

function userText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((message) => message.role === "user" && !isObservation(message.content))
    .map((message) => message.content)
    .join("\n");
}

/** A jsonl protocol line fed back to the model (an observation or an error), not the user's words. */
function isObservation(content: string): boolean {
  return /^\s*\{"type":"(observation|error)"/.test(content);
}

/** The item of the first user message that holds a query. */
function firstFound(messages: readonly ChatMessage[], gold: GoldIndex): SimGoldItem | undefined {
  for (const message of messages) {
    const item = message.role === "user" ? gold.find(message.content) : undefined;
    if (item) return item;
  }
  return undefined;
}
