/**
 * Reads one request the way the simulator needs it: which protocol, which dataset item, which tools
 * the prompt shows, which skill rules it carries, and the run so far. Pure: the same request gives the
 * same reading.
 */

import type { JsonSchema } from "../../mcp/types.ts";
import type { ChatMessage, ChatTool, ModelStage } from "../types.ts";
import type { GoldIndex, SimGoldItem } from "./gold.ts";
import { chatSeedText, type SeedText } from "./seed.ts";
import { readJsonlSystemTools, readToolSection, type ShownTool, toolFromSchema } from "./shown-tools.ts";
import {
  emptyTranscript,
  jsonlTranscript,
  nativeTranscript,
  reactTranscript,
  solverTranscript,
  type Transcript,
} from "./transcript.ts";

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
}

export function readRequest(request: SimRequest, gold: GoldIndex): SimReading {
  if (request.kind === "chat" && (request.stage === "jsonl" || request.stage === "native")) {
    return readChat(request, gold);
  }
  // A completion protocol, possibly sent as chat (an OpenAI-compatible endpoint): the messages are the prompt.
  const prompt =
    request.kind === "complete" ? request.prompt : request.messages.map((message) => message.content).join("\n\n");
  const item = gold.find(prompt);
  const protocol = request.stage;
  return {
    protocol,
    text: prompt,
    ...(item ? { item } : {}),
    tools: completionTools(protocol, prompt),
    skillTitles: skillTitles(prompt),
    transcript: completionTranscript(protocol, prompt, item),
    canCall: protocol !== "solver" && protocol !== "router",
  };
}

function completionTools(protocol: ModelStage, prompt: string): ShownTool[] {
  if (protocol === "planner") return readToolSection(prompt, "\nTools:\n");
  if (protocol === "react" || protocol === "fallback") return readToolSection(prompt, "You can use these tools:\n");
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
  const item =
    firstFound(request.messages, gold) ?? gold.find(request.messages.map((message) => message.content).join("\n"));
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
    transcript: jsonl ? jsonlTranscript(request.messages) : nativeTranscript(request.messages),
    canCall: jsonl || tools.length > 0,
  };
}

/** The item of the first user message that holds a query. */
function firstFound(messages: readonly ChatMessage[], gold: GoldIndex): SimGoldItem | undefined {
  for (const message of messages) {
    const item = message.role === "user" ? gold.find(message.content) : undefined;
    if (item) return item;
  }
  return undefined;
}
