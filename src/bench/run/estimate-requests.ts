/**
 * A run's model requests without the model: the same tasks through the same pipeline, servers and
 * configurations in memory, with the simulator standing in for every model (a `sim:` model is its own
 * profile, any other model `sim:slm-3b`, seeded per repeat as the run seeds it). Every request is kept
 * in the order the run would send it, with its answer and the simulator's token counts — so for a `sim:`
 * model the counts are exactly those of the real run. Nothing is written.
 */

import type { ModelEntry } from "../../config/models-yaml.ts";
import { isSimulator } from "../../models/decide-provenance.ts";
import { callsText, type PromptInput } from "../../models/prompt-text.ts";
import { createSimProvider } from "../../models/sim/index.ts";
import type { ChatRequest, CompletionRequest, GenerationOptions, ModelProvider } from "../../models/types.ts";
import type { Work } from "./bench.ts";
import { ModelOutageWatch } from "./model-outage.ts";
import { itemGold, runGold } from "./providers.ts";
import { contextOf } from "./resolve-request.ts";
import { runShare } from "./worker-share.ts";

/** The simulator profile that stands in for a model that is not a simulator. */
export const DRY_PASS_PROFILE = "slm-3b";

export interface DryRequest {
  model: string;
  repeat: number;
  /** The task that sends it. */
  taskKey: string;
  input: PromptInput;
  options?: GenerationOptions;
  /** The simulator's answer: text, then tool calls as JSON. */
  output: string;
  /** The simulator's counts, as a run's records report them. */
  promptTokens: number;
  completionTokens: number;
}

export interface DryPass {
  requests: DryRequest[];
  /** Wall time of the pass: the harness's own work for these tasks (the simulator answers in microseconds). */
  wallMs: number;
}

export async function dryPass(work: Work): Promise<DryPass> {
  const requests: DryRequest[] = [];
  const made = new Map<string, ModelProvider>();
  const gold = runGold(work);
  // BFCL multi-turn: each entry's own gold, as the run gives it (providers.ts itemGold)
  const goldOf = itemGold(work);
  const providers = (model: string, repeat: number, itemId: string): ModelProvider => {
    const key = goldOf ? `${model}#${repeat}#${itemId}` : `${model}#${repeat}`;
    const existing = made.get(key);
    if (existing) return existing;
    const entry = work.entries.find((candidate) => candidate.name === model) as ModelEntry;
    const sim = createSimProvider({
      profile: isSimulator(entry) ? entry.profile : DRY_PASS_PROFILE,
      gold: goldOf ? goldOf(itemId) : gold,
      seed: work.request.seed + repeat,
    });
    const provider = recording(sim, model, repeat, requests);
    made.set(key, provider);
    return provider;
  };
  const started = performance.now();
  let claimed = 0;
  // one query at a time, in the run's order (the order its requests reach a server): the requests made
  // since the last task finished are the finished task's
  await runShare(
    {
      runId: "dry-pass",
      request: { ...work.request, transport: "memory" },
      resolved: work.resolved,
      items: work.items,
      ...(work.conversations ? { conversations: work.conversations } : {}),
      bfcl: work.bfcl,
      concurrency: 1,
      ...(work.suite?.servers ? { servers: work.suite.servers } : {}),
      ...contextOf(work.suite),
      spanParent: { traceId: "1".repeat(32), spanId: "1".repeat(16) },
    },
    work.todo,
    {
      signal: new AbortController().signal,
      outage: new ModelOutageWatch(),
      providers,
      onFinished: (task) => {
        for (const request of requests.slice(claimed)) request.taskKey = task.key;
        claimed = requests.length;
      },
    },
  );
  return { requests, wallMs: performance.now() - started };
}

/** The simulator, every request and answer kept. */
function recording(sim: ModelProvider, model: string, repeat: number, requests: DryRequest[]): ModelProvider {
  const keep = (
    input: PromptInput,
    request: CompletionRequest | ChatRequest,
    output: string,
    usage: { promptTokens: number; completionTokens: number },
  ) =>
    requests.push({
      model,
      repeat,
      taskKey: "",
      input,
      ...(request.options ? { options: request.options } : {}),
      output,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
    });
  return {
    id: sim.id,
    complete: async (request) => {
      const response = await sim.complete(request);
      keep({ prompt: request.prompt }, request, response.text, response.usage);
      return response;
    },
    chat: async (request) => {
      const response = await sim.chat(request);
      // copies: the agent appends to its conversation after the call
      const input = { messages: [...request.messages], tools: [...(request.tools ?? [])] };
      keep(input, request, response.text + callsText(response.toolCalls), response.usage);
      return response;
    },
  };
}
