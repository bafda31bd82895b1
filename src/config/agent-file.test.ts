import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import schema from "../../docs/schemas/agent-file.schema.json" with { type: "json" };
import { DEFAULT_AGENT_CONFIG, DEFAULT_LIMITS } from "../agent/types.ts";
import { REGISTRY_FIELDS, RESET_KINDS } from "../mcp/registry.ts";
import { AGENT_FILE_FORMAT, type AgentFile, formatAgentFile, isAgentFileModel, parseAgentFile } from "./agent-file.ts";
import { loadModelsConfig, parseModelsConfig, resolveConfiguration, resolveModel } from "./models-yaml.ts";

const models = loadModelsConfig();

function agentFileOf(configName: string, model = "qwen2.5:1.5b"): AgentFile {
  const entry = resolveModel(models, model);
  const { agent: _axes, ...provider } = entry;
  if (!isAgentFileModel(provider)) throw new Error("not a plugin");
  return {
    format: AGENT_FILE_FORMAT,
    model: provider,
    config: configName,
    configuration: resolveConfiguration(models, { model: entry, configName }),
    dry_run: false,
    servers: [
      {
        name: "github",
        purpose: "issues",
        transport: "stdio",
        command: "node",
        args: ["x.mjs"],
        env: ["GITHUB_TOKEN"],
      },
    ],
    provenance: { project: "onsetlab-bench", version: "0.1.0", git: "abc1234", exportedAt: "2026-11-25T00:00:00.000Z" },
  };
}

describe("agent file", () => {
  it("its schema names every configuration axis and limit, and requires them all", () => {
    const configuration = schema.definitions.Configuration;
    // the agent's axes and the bench's exposure
    const axes = [...Object.keys(DEFAULT_AGENT_CONFIG), "exposure"];
    expect([...configuration.required].sort()).toEqual(axes.sort());
    // every axis, and the optional agent definition (models.yaml `agent:`)
    expect(Object.keys(configuration.properties).sort()).toEqual([...axes, "definition"].sort());
    expect([...configuration.properties.limits.required].sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort());
  });

  it("its servers take every registry field, the reset kinds, and env in both forms", () => {
    const server = schema.definitions.Server;
    expect(Object.keys(server.properties).sort()).toEqual([...REGISTRY_FIELDS].sort());
    expect(server.properties.reset.enum).toEqual([...RESET_KINDS]);
    const agent = agentFileOf("onsetlab");
    const withEnv = (env: unknown) =>
      formatAgentFile({ ...agent, servers: [{ ...agent.servers[0]!, env } as AgentFile["servers"][number]] }, "json");
    const env = { LOG_LEVEL: "debug", GITHUB_TOKEN: null };
    expect(parseAgentFile(withEnv(env), "agent.json").servers[0]!.env).toEqual(env);
    expect(() => parseAgentFile(withEnv({ "NOT A NAME": null }), "agent.json")).toThrow(/servers\.0\.env/);
    expect(() => parseAgentFile(withEnv({ PORT: 8080 }), "agent.json")).toThrow(/servers\.0\.env/);
  });

  it.each(Object.keys(models.configurations))("%s resolved is a valid file, in YAML and in JSON", (name) => {
    const agent = agentFileOf(name);
    expect(parseAgentFile(formatAgentFile(agent, "yaml"), "agent.yaml")).toEqual(agent);
    expect(parseAgentFile(formatAgentFile(agent, "json"), "agent.json")).toEqual(agent);
  });

  it("read as a models file: one model, one configuration, which resolves to the file's own", () => {
    const agent = agentFileOf("onsetlab-plus");
    const asModels = parseModelsConfig(stringify(agent), "agent.yaml");
    expect(Object.keys(asModels.models)).toEqual(["qwen2.5:1.5b"]);
    expect(Object.keys(asModels.configurations)).toEqual(["onsetlab-plus"]);
    const entry = resolveModel(asModels, "qwen2.5:1.5b");
    expect(resolveConfiguration(asModels, { model: entry, configName: "onsetlab-plus" })).toEqual(agent.configuration);
    // CLI flags still override an axis of the file's configuration
    expect(
      resolveConfiguration(asModels, { model: entry, configName: "onsetlab-plus", cli: { filter: 3 } }).filter,
    ).toBe(3);
  });

  it.each([
    [
      "an env value",
      (agent: AgentFile) => ({ ...agent, servers: [{ ...agent.servers[0]!, env: ["GITHUB_TOKEN=ghp_x"] }] }),
      /servers\.0\.env\.0: must match pattern/,
    ],
    [
      "an api key",
      (agent: AgentFile) => ({ ...agent, model: { ...agent.model, apiKey: "sk-123" } }),
      /model: must NOT have additional properties \(apiKey\)/,
    ],
    [
      "an unknown axis value",
      (agent: AgentFile) => ({ ...agent, configuration: { ...agent.configuration, rescue: "always" } }),
      /configuration\.rescue: must be equal to one of the allowed values/,
    ],
    [
      "a missing limit",
      (agent: AgentFile) => ({ ...agent, configuration: { ...agent.configuration, limits: { plannerMaxTokens: 1 } } }),
      /configuration\.limits: must have required property/,
    ],
  ])("refuses %s with one line naming the key", (_case, change, message) => {
    const text = JSON.stringify(change(agentFileOf("onsetlab")));
    expect(() => parseAgentFile(text, "agent.json")).toThrow(message);
  });
});
