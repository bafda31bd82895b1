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
export { loadDataset, readDataset, resolveDatasetFiles } from "./bench/dataset/load.ts";
export { loadSuite, type Suite, suiteOf } from "./bench/dataset/suite.ts";
export { CATEGORIES, type Category, type DatasetItem, type LoadedItem } from "./bench/dataset/types.ts";
export { worldContext } from "./bench/dataset/world-clock.ts";
export { type BenchOptions, type BenchOutcome, runBench } from "./bench/run/bench.ts";
export type { RunSummary } from "./bench/run/compare-configs.ts";
export type { BenchRequest, RunManifest, RunRecord, StoredRecord } from "./bench/run/run-file-types.ts";
export { withTrace } from "./bench/run/run-file-types.ts";
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
  type LoadedDefinition,
  loadAgentDefinition,
  parseAgentDefinition,
  withFiles,
} from "./config/agent-definition.ts";
export {
  DEFAULT_MODELS_FILE,
  loadModelsConfig,
  // the name the issue and the docs use for the same loader
  loadModelsConfig as loadModelsYaml,
  type ModelEntry,
  type ModelsConfig,
  parseModelsConfig,
  resolveConfiguration,
  resolveModel,
} from "./config/models-yaml.ts";
export { InputError, OnsetlabError } from "./errors.ts";
export { ExtensionModuleError } from "./load-module.ts";
export type { InProcessFactory, InProcessServer, TransportKind } from "./mcp/connection.ts";
export { ClientPool, type PoolOptions } from "./mcp/pool.ts";
export { DEFAULT_REGISTRY, loadRegistry, parseRegistry, type Registry, type RegistryEntry } from "./mcp/registry.ts";
export type { CallOptions, ToolCallResult, ToolDefinition, ToolHost } from "./mcp/types.ts";
export type { PluginProviderEntry, ProviderEntry } from "./models/entry.ts";
export { createProvider, type ProviderDeps, providerId } from "./models/factory.ts";
export {
  type ProviderFactory,
  registeredProviders,
  registerProvider,
} from "./models/provider-registry.ts";
export { type Script, ScriptedModel, type ScriptedReply } from "./models/scripted.ts";
export { createSimProvider } from "./models/sim/index.ts";
export type {
  ChatRequest,
  ChatResponse,
  CompletionRequest,
  CompletionResponse,
  ModelProvider,
  ModelStage,
} from "./models/types.ts";
