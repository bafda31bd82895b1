/**
 * The library: what a program needs to run the agent, run and score a bench, and plug in its own
 * providers, metrics and MCP servers without editing this repository (docs/extending.md).
 * The CLI (src/cli/bin.ts) is built on the same parts.
 */

export {
  type AgentConfig,
  type AgentConfigInput,
  type AgentLimits,
  type AgentResult,
  DEFAULT_AGENT_CONFIG,
  type ModelCallRecord,
  type RunAgentOptions,
  resolveAgentConfig,
  runAgent,
  SKILLS,
  type Skill,
  type Strategy,
  type ToolCallRecord,
} from "./agent/index.ts";
export {
  CATEGORIES,
  type Category,
  type DatasetItem,
  type LoadedItem,
  loadDataset,
  loadSuite,
  readDataset,
  resolveDatasetFiles,
  type Suite,
  suiteOf,
  worldContext,
} from "./bench/dataset/index.ts";
export type { BenchRequest, RunManifest, RunRecord, RunSummary, StoredRecord } from "./bench/run/index.ts";
export { type BenchOptions, type BenchOutcome, runBench, withTrace } from "./bench/run/index.ts";
export {
  type CustomItemMetric,
  type CustomMetricInfo,
  clearCustomMetrics,
  customMetrics,
  defineMetric,
  ITEM_METRICS,
  type ItemMetric,
  type ItemScore,
  loadMetricModules,
  type Rate,
  registerMetric,
  type ScoredRecord,
  type ScoreItemInput,
  type Summary,
  type SummaryRow,
  scoreItem,
  summarize,
} from "./bench/scoring/index.ts";
export {
  DEFAULT_MODELS_FILE,
  type LoadedDefinition,
  loadAgentDefinition,
  loadModelsConfig,
  // the name the issue and the docs use for the same loader
  loadModelsConfig as loadModelsYaml,
  type ModelEntry,
  type ModelsConfig,
  parseAgentDefinition,
  parseModelsConfig,
  resolveConfiguration,
  resolveModel,
  withFiles,
} from "./config/index.ts";
export { InputError, OnsetlabError } from "./errors.ts";
export { ExtensionModuleError } from "./load-module.ts";
export type { InProcessFactory, InProcessServer, TransportKind } from "./mcp/index.ts";
export {
  ClientPool,
  DEFAULT_REGISTRY,
  loadRegistry,
  type PoolOptions,
  parseRegistry,
  type Registry,
  type RegistryEntry,
} from "./mcp/index.ts";
export type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelStage,
  PluginProviderEntry,
  ProviderEntry,
} from "./models/index.ts";
export {
  createProvider,
  createSimProvider,
  type ProviderDeps,
  type ProviderFactory,
  providerId,
  registeredProviders,
  registerProvider,
  type Script,
  ScriptedModel,
  type ScriptedReply,
} from "./models/index.ts";
export type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "./tool-protocol/index.ts";
