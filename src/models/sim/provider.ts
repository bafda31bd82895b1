/**
 * The `sim` provider (DESIGN §6): a ModelProvider over the simulator engine. Usage and timings are
 * simulated (labelled so wherever they are reported); a call is instant unless `paceTokensPerSec`
 * asks for real waiting. The provider keeps no state between calls.
 */

import { ModelAbortedError, ModelTimeoutError } from "../errors.ts";
import { promptChars } from "../prompt-text.ts";
import type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelTimings,
  ModelUsage,
} from "../types.ts";
import { type SimAnswer, SimEngine, type SimOptions } from "./engine.ts";
import type { SimRequest } from "./reading.ts";
import { pause, simTimings, simUsage } from "./usage.ts";

export interface SimProviderOptions extends SimOptions {
  /** Generation speed to imitate in real time (the stand-in server); absent: answers are instant. */
  paceTokensPerSec?: number;
}

export function createSimProvider(options: SimProviderOptions): ModelProvider {
  return new SimProvider(options);
}

class SimProvider implements ModelProvider {
  readonly id: string;
  private readonly engine: SimEngine;

  constructor(private readonly options: SimProviderOptions) {
    this.engine = new SimEngine(options);
    this.id = `sim:${this.engine.profile.name}`;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const { text, usage, timings } = await this.answer(request, request.prompt.length, {
      kind: "complete",
      stage: request.stage,
      prompt: request.prompt,
    });
    return { text, usage, timings };
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const chars = promptChars({ messages: request.messages, ...(request.tools ? { tools: request.tools } : {}) });
    const { text, toolCalls, usage, timings } = await this.answer(request, chars, {
      kind: "chat",
      stage: request.stage,
      messages: request.messages,
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.format ? { format: request.format } : {}),
    });
    return { text, toolCalls, usage, timings };
  }

  private async answer(
    request: CompletionRequest | ChatRequest,
    promptChars: number,
    simRequest: SimRequest,
  ): Promise<SimAnswer & { usage: ModelUsage; timings: ModelTimings }> {
    const what = `${this.id} ${request.stage} call`;
    if (request.signal?.aborted) {
      throw new ModelAbortedError("MODEL_ABORTED", `${what} aborted by the caller`, { cause: request.signal.reason });
    }
    const answer = this.engine.respond(simRequest);
    const output = answer.text + answer.toolCalls.map((call) => JSON.stringify(call)).join("");
    const usage = simUsage(promptChars, output);
    const timings = simTimings(usage, this.engine.profile.speed, this.options.paceTokensPerSec);
    const limit = request.timeoutMs;
    if (this.options.paceTokensPerSec !== undefined) {
      await pause(Math.min(timings.totalMs, limit ?? Number.POSITIVE_INFINITY), request.signal, what);
    }
    if (limit !== undefined && timings.totalMs > limit) {
      throw new ModelTimeoutError(
        "MODEL_TIMEOUT",
        `${what} would take ${timings.totalMs} ms (simulated), over its ${limit} ms limit`,
        { context: { stage: request.stage, timeoutMs: limit, simulatedMs: timings.totalMs } },
      );
    }
    if (answer.text) request.onText?.(answer.text);
    return { ...answer, usage, timings };
  }
}
