/** The models part's public surface: providers (live, simulated, scripted, cached), their registry, provenance, prompt size, the stage protocol and model errors. */

export { isDeterministic, type ModelIdentity, requestHash } from "./caching-provider.ts";
export { checkRecordTarget } from "./cassette.ts";
export { isSimulator, probedProvenance, provenanceOf } from "./decide-provenance.ts";
export type { PluginProviderEntry, ProviderEntry } from "./entry.ts";
export {
  CassetteMissError,
  failureInvalid,
  ModelError,
  ModelNotFoundError,
  PromptTooLongError,
  ProviderHttpError,
  ProviderUnreachableError,
  ToolsUnsupportedError,
} from "./errors.ts";
export { createProvider, modelIdentity, type ProviderDeps, providerId, seededEntry } from "./factory.ts";
export { isTransient, STAGE_HEADER } from "./http.ts";
export { fromOllamaOptions } from "./ollama-wire.ts";
export { PrefixTracker } from "./prefix-tracker.ts";
export {
  CHARS_PER_TOKEN,
  estimateTokens,
  type Fitted,
  fitToWindow,
  type PromptRenderer,
  sharedPrefixChars,
  wholeTokens,
} from "./prompt-size.ts";
export { cachedAfter, callsText, type PromptInput, renderPrompt } from "./prompt-text.ts";
export { isModelStage, type ModelStage, PROTOCOL } from "./protocol.ts";
export {
  inProcessSimulator,
  isDeterministicProvenance,
  isSimulatedProvenance,
  type ModelProvenance,
  type Provenance,
} from "./provenance.ts";
export {
  definitionNamed,
  type ProviderFactory,
  providerDefinitions,
  registeredProviders,
  registerProvider,
} from "./provider-registry.ts";
export { isOllamaEntry, type OllamaProviderEntry, ollamaDefinition } from "./providers/ollama.ts";
export { isOpenAIEntry, type OpenAIProviderEntry } from "./providers/openai.ts";
export { isSimEntry, type SimProviderEntry } from "./providers/sim.ts";
export { type CacheCounters, defaultCacheDir, RequestCache, requestCacheAt } from "./request-cache.ts";
export { type Script, ScriptedModel, type ScriptedReply } from "./scripted.ts";
export { groundedAnswer } from "./sim/answer.ts";
export { simProfileNames } from "./sim/catalog.ts";
export type { SimGoldItem } from "./sim/gold.ts";
export { createSimProvider, goldCalls } from "./sim/index.ts";
export { parseToolArguments } from "./tool-arguments.ts";
export {
  type CallContext,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type ChatTool,
  type CompletionRequest,
  type CompletionResponse,
  type GenerationOptions,
  INVALID_REASONS,
  type InvalidReason,
  type ModelFacts,
  type ModelProvider,
  type ModelTimings,
  type ModelUsage,
  type NativeToolCall,
  type WarmUp,
} from "./types.ts";
