/** The configuration part's public surface: models.yaml, agent files and agent definitions, read and checked, and the agent configuration each entry composes. */

export { type LoadedDefinition, loadAgentDefinition, parseAgentDefinition, withFiles } from "./agent-definition.ts";
export {
  AGENT_FILE_FORMAT,
  type AgentFile,
  type AgentFileModel,
  agentFileRegistry,
  formatAgentFile,
  isAgentFileModel,
  oneLine,
  readAgentFile,
  type ScoreRate,
} from "./agent-file.ts";
export { agentConfigOf, type Configuration, type ConfigurationInput } from "./configuration.ts";
export {
  DEFAULT_MODELS_FILE,
  loadModelsConfig,
  type ModelEntry,
  type ModelsConfig,
  matrixConfigs,
  matrixModels,
  parseModelsConfig,
  resolveConfiguration,
  resolveModel,
  withAgentConfigurations,
} from "./models-yaml.ts";
