/**
 * A deterministic provider for tests of the HTTP layer (stand-in, providers, cassettes): it echoes the
 * last line it was given, and makes a tool call when a user message says `call <tool> with {json}`.
 * Usage counts words, so every answer has non-zero usage; a fired signal rejects.
 */

import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelStage,
} from "../../src/models/types.ts";

export class EchoModel implements ModelProvider {
  readonly id = "echo:test";
  /** Stages of the requests received, in order. */
  readonly stages: ModelStage[] = [];

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.receive(request);
    const text = `echo: ${lastLine(request.prompt)}`;
    return { text, usage: usage(request.prompt, text), timings: { totalMs: 0 } };
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.receive(request);
    const last = request.messages.at(-1)?.content ?? "";
    const prompt = request.messages.map((message) => message.content).join("\n");
    const asked = /^call (\w+) with (\{.*\})$/.exec(last);
    if (asked && request.tools?.some((tool) => tool.name === asked[1])) {
      const call = { name: asked[1]!, arguments: JSON.parse(asked[2]!) as Record<string, unknown> };
      return { text: "", toolCalls: [call], usage: usage(prompt, JSON.stringify(call)), timings: { totalMs: 0 } };
    }
    const text = `echo: ${lastLine(last)}`;
    return { text, toolCalls: [], usage: usage(prompt, text), timings: { totalMs: 0 } };
  }

  private receive(request: { stage: ModelStage; signal?: AbortSignal }): void {
    request.signal?.throwIfAborted();
    this.stages.push(request.stage);
  }
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}

function usage(prompt: string, output: string) {
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  return { promptTokens: words(prompt), completionTokens: Math.max(1, words(output)) };
}
