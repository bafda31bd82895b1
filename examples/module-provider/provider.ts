/**
 * A model provider from outside src/, named in models.yaml as `provider: module:./provider.ts`.
 * The default export builds a ModelProvider from the models.yaml entry (its `settings:` as written).
 * This one is a keyword model, enough to show the plumbing: it calls the first offered tool whose name
 * shares a word with the question, then answers with the tool's result prefixed by `settings.prefix`.
 * A real one would send the request to its server (see src/models/openai.ts for one that does).
 */
import type { ChatRequest, ChatResponse, ModelProvider, PluginProviderEntry } from "../../src/index.ts";

export default function createKeywordProvider(entry: PluginProviderEntry): ModelProvider {
  const prefix = typeof entry.settings.prefix === "string" ? entry.settings.prefix : "";
  const timings = { totalMs: 0 };
  const usage = { promptTokens: 0, completionTokens: 0 };
  return {
    id: `keyword:${entry.model}`,
    async complete() {
      return { text: `${prefix}I can only answer with tools.`, usage, timings };
    },
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const last = request.messages.at(-1);
      if (last?.role === "tool") return { text: `${prefix}${last.content}`, toolCalls: [], usage, timings };
      const words = new Set((last?.content ?? "").toLowerCase().match(/[a-z]+/g) ?? []);
      const tool = request.tools?.find((candidate) => candidate.name.split("_").some((word) => words.has(word)));
      const noun = [...words].find((word) => word.endsWith("s") && word.length > 3)?.replace(/s$/, "");
      return tool
        ? { text: "", toolCalls: [{ id: "1", name: tool.name, arguments: { product: noun ?? "" } }], usage, timings }
        : { text: `${prefix}No tool fits.`, toolCalls: [], usage, timings };
    },
  };
}
