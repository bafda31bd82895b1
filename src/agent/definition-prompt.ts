/**
 * A definition's prompt for one run: the template filled in with the run's values — the tool list in
 * the driven protocol's own form, the date line, the earlier turns, the injected files — and what the
 * filled-in prompt holds, for the record (the files' share of it is what they cost in the context window).
 */

import { estimateTokens } from "../models/prompt-size.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { type AgentDefinition, type AgentProtocol, renderTemplate } from "./definition.ts";
import type { ConversationTurn } from "./history.ts";
import { jsonlToolLine } from "./jsonl.ts";
import { describeTool, describeToolAbstract } from "./tool-schema.ts";
import type { PlanExamples } from "./types.ts";

/** What a run's definition prompt held: recorded in `AgentResult.definition`. */
export interface DefinitionUse {
  name: string;
  hash: string;
  protocol: AgentProtocol;
  /** Characters of the filled-in prompt. */
  promptChars: number;
  /** The injected files: their characters in the prompt (after the cap) and the high token estimate of those. */
  files: { path: string; chars: number; injectedChars: number; truncated: boolean; estimatedTokens: number }[];
}

export interface DefinitionPromptInput {
  definition: AgentDefinition;
  /** The tools the protocol shows (ReAct: the filtered ones). */
  tools: readonly ToolDefinition[];
  /** The suite clock's date line (`Today is …`), or none. */
  context?: string;
  /** The conversation's earlier turns (none: a single turn). */
  history?: readonly ConversationTurn[];
  /** ReAct's tool lines: concrete examples or OnsetLab's placeholders. */
  examples: PlanExamples;
}

export function definitionPrompt(input: DefinitionPromptInput): { prompt: string; use: DefinitionUse } {
  const { definition } = input;
  const prompt = renderTemplate(definition, {
    date: input.context ?? "",
    tools: toolList(definition.protocol, input.tools, input.examples),
    history: turnsText(input.history ?? []),
    files: definition.files,
  });
  return {
    prompt,
    use: {
      name: definition.name,
      hash: definition.hash,
      protocol: definition.protocol,
      promptChars: prompt.length,
      // a file the template never reads costs nothing: counted only when its text is in the prompt
      files: definition.files.map((file) => {
        const injectedChars = file.content.length > 0 && prompt.includes(file.content) ? file.content.length : 0;
        return {
          path: file.path,
          chars: file.chars,
          injectedChars,
          truncated: file.truncated,
          estimatedTokens: estimateTokens.high(injectedChars),
        };
      }),
    },
  };
}

/**
 * The tool list in the protocol's form: `native` names and descriptions (the schemas go to the API as
 * tools), `jsonl` one JSON Schema object per line (what its parser's model is told to fill in), `react`
 * the `name(param="example") - description` lines of the ReAct prompt.
 */
export function toolList(protocol: AgentProtocol, tools: readonly ToolDefinition[], examples: PlanExamples): string {
  switch (protocol) {
    case "native":
      return tools.map((tool) => `- ${tool.name}: ${tool.description}`).join("\n");
    case "jsonl":
      return tools.map(jsonlToolLine).join("\n");
    case "react":
      return tools.map(examples === "placeholders" ? describeToolAbstract : describeTool).join("\n");
  }
}

/** Earlier turns as `User: …` / `Assistant: …` lines: what was said, not the tool calls between. */
function turnsText(turns: readonly ConversationTurn[]): string {
  return turns.map((turn) => `User: ${turn.user}\nAssistant: ${turn.answer}`).join("\n");
}
