/**
 * The ReAct loop, used as a strategy of its own and as the fallback after a failed ReWOO run (fewer
 * iterations, the failure in the prompt). Write tools go through the write guard when it is on.
 */

import type { ToolDefinition } from "../tool-protocol/types.ts";
import { buildReactPrompt, parseReactOutput, type ReactTurn, reactOptions } from "./react.ts";
import type { RunRecorder } from "./recorder.ts";
import type { Evidence } from "./solver.ts";
import { observationText, type ToolRunner } from "./tool-runner.ts";
import { argumentsFromInput, findTool } from "./tool-schema.ts";
import type { LoopIteration, PlanExamples, ReactProtocol } from "./types.ts";

export interface ReactLoopInput {
  query: string;
  stage: "react" | "fallback";
  /** What the prompt lists (the filtered tools). */
  visibleTools: readonly ToolDefinition[];
  /** What may be called (every connected tool). */
  allTools: readonly ToolDefinition[];
  maxIterations: number;
  observationChars: number;
  guarded: boolean;
  skillRules?: string;
  errorContext?: string;
  /** The conversation's earlier turns, as the prompt shows them. */
  history?: string;
  protocol: ReactProtocol;
  examples: PlanExamples;
  /** An agent definition's prompt in place of the built-in instructions (react.ts). */
  instructions?: string;
  recorder: RunRecorder;
  runner: ToolRunner;
}

export interface ReactLoopOutput {
  iterations: LoopIteration[];
  /** The model's Final Answer, when it gave one. */
  final?: string;
  /** Every tool result the loop saw, for the solver. */
  evidence: Evidence[];
}

const INVALID_FORMAT: Record<ReactProtocol, string> = {
  json: "Invalid format. Write Action and Action Input, or Final Answer.",
  call: 'Invalid format. Write Action: tool(param="value"), or Final Answer.',
};

export async function runReactLoop(input: ReactLoopInput): Promise<ReactLoopOutput> {
  const turns: ReactTurn[] = [];
  const iterations: LoopIteration[] = [];
  const evidence: Evidence[] = [];
  for (let index = 1; index <= input.maxIterations; index++) {
    const prompt = buildReactPrompt({
      query: input.query,
      tools: input.visibleTools,
      ...(input.skillRules ? { skillRules: input.skillRules } : {}),
      ...(input.errorContext ? { errorContext: input.errorContext } : {}),
      ...(input.history ? { history: input.history } : {}),
      turns,
      protocol: input.protocol,
      examples: input.examples,
      ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
    });
    const response = await input.recorder.complete(input.stage, {
      stage: input.stage,
      prompt,
      options: reactOptions(input.protocol),
    });
    const parsed = parseReactOutput(response.text);
    const iteration: LoopIteration = { index, thought: parsed.thought };
    iterations.push(iteration);
    if (parsed.final !== undefined) {
      iteration.final = parsed.final;
      input.recorder.emit({ type: "turn", stage: input.stage, iteration });
      return { iterations, final: parsed.final, evidence };
    }
    if (!parsed.action) {
      iteration.parseError = parsed.error ?? "unreadable";
      iteration.observation = INVALID_FORMAT[input.protocol];
      turns.push({
        thought: parsed.thought,
        action: "(none)",
        input: "",
        observation: iteration.observation,
        raw: response.text,
      });
      input.recorder.emit({ type: "turn", stage: input.stage, iteration });
      continue;
    }
    const tool = findTool(input.allTools, parsed.action);
    const args = argumentsFromInput(tool, parsed.input);
    iteration.action = parsed.action;
    iteration.input = args;
    if (!tool) {
      iteration.observation = `Unknown tool "${parsed.action}". Use one of: ${input.visibleTools.map((t) => t.name).join(", ")}.`;
    } else {
      const record = await input.runner.call({
        stage: input.stage,
        tool: tool.name,
        args,
        prepare: true,
        guarded: input.guarded,
      });
      iteration.callSeqs = [record.seq];
      evidence.push({ source: tool.name, ok: record.ok, text: record.text, data: record.data });
      iteration.observation = observationText(record, input.observationChars, input.query);
    }
    turns.push({
      thought: parsed.thought,
      action: parsed.action,
      input: JSON.stringify(args),
      observation: iteration.observation,
      raw: response.text,
    });
    input.recorder.emit({ type: "turn", stage: input.stage, iteration });
  }
  return { iterations, evidence };
}
