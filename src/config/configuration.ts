/**
 * A configuration as the bench resolves it: the agent's settings and the bench's own (`exposure`). Kept
 * apart from models-yaml.ts, which finds the repository's models.yaml when loaded: the exported agent
 * bundle (agent.mjs) runs where there is no repository, and needs only `agentConfigOf`.
 */
import type { AgentConfig, AgentConfigInput } from "../agent/types.ts";
import type { Exposure } from "../bench/dataset/exposure.ts";

/** A configuration's axes as models.yaml gives them: the agent's, and the bench's `exposure`. */
export interface ConfigurationInput extends AgentConfigInput {
  exposure?: Exposure;
}

/** A configuration resolved: the agent's configuration, and the servers the bench connects for a query. */
export interface Configuration extends AgentConfig {
  exposure: Exposure;
}

/** What the agent is given of a configuration: the bench's settings left out. */
export function agentConfigOf(configuration: Configuration): AgentConfig {
  const { exposure: _bench, ...agent } = configuration;
  return agent;
}
