/**
 * Tool selection by a model (`tool_selection: model`): when a session has more tools than the planner
 * may see, one short completion shows the model every candidate's name and one-line description,
 * grouped by server, and asks which ones the request needs. Its picks (known names only, at most
 * `limit`) come first; the ranking (filter.ts, retrieval.ts) fills the rest, so a model that names
 * nothing usable still leaves the planner the ranked tools. It reaches what no word of the request
 * names ("who reviewed acme/api#9" → pull_request_read) at the cost of one model call whose prompt
 * holds a line per tool.
 */

import { PROTOCOL } from "../models/protocol.ts";
import type { CompletionRequest } from "../models/types.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { firstSentence } from "./tool-schema.ts";

export interface SelectorPromptInput {
  query: string;
  tools: readonly ToolDefinition[];
  limit: number;
  history?: string;
}

export function buildSelectorPrompt(input: SelectorPromptInput): string {
  const servers = [...new Set(input.tools.map((tool) => tool.server))];
  const blocks = servers.map((server) => {
    const lines = input.tools
      .filter((tool) => tool.server === server)
      .map((tool) => `- ${tool.name}: ${firstSentence(tool.description)}`);
    return `${server}:\n${lines.join("\n")}`;
  });
  return [
    "You choose the tools an assistant will be given for a request. Each line is a tool and what it does.",
    "",
    blocks.join("\n\n"),
    "",
    ...(input.history ? [input.history, ""] : []),
    `Request: ${input.query}`,
    "",
    `Name the tools the request needs, at most ${input.limit}, most needed first, one name a line. Include the tools ` +
      "that find what another needs first (an id, a file's path, a page by its title). Names only, no other text.",
    PROTOCOL.toolsNeeded,
  ].join("\n");
}

/** The selector's completion request: greedy, enough tokens for `limit` names a line each. */
export function selectorRequest(input: SelectorPromptInput): CompletionRequest {
  return {
    stage: "select",
    prompt: buildSelectorPrompt(input),
    options: { temperature: 0, maxTokens: 12 * input.limit + 16 },
  };
}

/**
 * The tool names in an answer, in order, each once, at most `limit`: a line or comma-separated item
 * is read after bullets, numbering, quotes and a `server.` prefix; a name matches ignoring case.
 * Anything else (prose, an unknown name) is left out.
 */
export function parseSelectorAnswer(text: string, tools: readonly ToolDefinition[], limit: number): string[] {
  const byName = new Map(tools.map((tool) => [tool.name.toLowerCase(), tool.name]));
  const picks: string[] = [];
  for (const item of text.split(/[\n,]/)) {
    const candidates = item
      .trim()
      .replace(/^(\d+[.)]|[-*•])\s*/, "")
      .split(/\s+/)
      .map((word) => word.replace(/^[`'"*(]+|[`'"*):.;]+$/g, "").toLowerCase());
    for (const candidate of candidates) {
      const name = byName.get(candidate) ?? byName.get(candidate.slice(candidate.indexOf(".") + 1));
      if (name !== undefined && !picks.includes(name)) picks.push(name);
    }
  }
  return picks.slice(0, limit);
}

/** The picks first, then the ranked tools not picked, `limit` in all. */
export function mergeSelection(picks: readonly string[], ranked: readonly string[], limit: number): string[] {
  return [...picks, ...ranked.filter((name) => !picks.includes(name))].slice(0, limit);
}
