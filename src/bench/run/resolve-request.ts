/**
 * What a bench request resolves to before anything runs: the configurations, each model × configuration's
 * agent settings, how many items and threads, and what the run says about its models and versions.
 */

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import type { AgentDefinition } from "../../agent/definition.ts";
import { withFiles } from "../../config/agent-definition.ts";
import type { Configuration, ConfigurationInput } from "../../config/configuration.ts";
import {
  loadModelsConfig,
  type ModelEntry,
  type ModelsConfig,
  matrixConfigs,
  matrixModels,
  resolveConfiguration,
  withAgentConfigurations,
} from "../../config/models-yaml.ts";
import { InputError } from "../../errors.ts";
import { loadRegistries, type Registry } from "../../mcp/registry.ts";
import { cached } from "../../memo.ts";
import { isSimulator, probedProvenance, provenanceOf } from "../../models/decide-provenance.ts";
import { providerId } from "../../models/factory.ts";
import { REPO_ROOT } from "../../paths.ts";
import { resolveDatasetFiles } from "../dataset/load.ts";
import type { ItemCount } from "../dataset/select.ts";
import { type Suite, suiteOf } from "../dataset/suite.ts";
import { worldContext } from "../dataset/world-clock.ts";
import type { ModelProbe } from "./model-facts.ts";
import type { BenchRequest, RunManifest, RunModel } from "./run-file-types.ts";

/** Below this many tasks a thread's start-up (its own servers, about a second) costs more than it saves. */
const TASKS_PER_EXTRA_THREAD = 1000;

/**
 * Threads to run tasks on. Only the simulator without cassettes: real models are measured one query at a
 * time (honest latency), and a cassette is one file. By default one per core, as far as the tasks pay for it.
 */
export function threadCount(
  requested: number | undefined,
  entries: readonly ModelEntry[],
  request: BenchRequest,
  tasks: number,
): number {
  const eligible = entries.every(isSimulator) && !request.record && !request.replay;
  if (requested !== undefined) {
    if (requested > 1 && !eligible) {
      throw new InputError(
        "BAD_FLAG",
        "--threads above 1 runs the simulator only, without --record/--replay (real models run one query at a time)",
      );
    }
    return requested;
  }
  if (!eligible) return 1;
  return Math.max(1, Math.min(availableParallelism(), 1 + Math.floor(tasks / TASKS_PER_EXTRA_THREAD)));
}

/** The request's servers: its registry files merged. */
export function requestRegistry(request: Pick<BenchRequest, "registries">): Registry {
  return loadRegistries(request.registries ?? []);
}

/** How many of the filtered items the request takes (`--limit`, `--first`). */
export function itemCount(request: Pick<BenchRequest, "limit" | "first" | "seed">): ItemCount {
  return { limit: request.limit, first: request.first, seed: request.seed };
}

/**
 * The run's configurations: `--config`'s, else the matrix's; then one per `--agent` definition (alone,
 * without --config or --matrix, they are the whole run).
 */
export function configNames(models: ModelsConfig, request: BenchRequest, agentNames: readonly string[] = []): string[] {
  if (request.configs.length > 0 || (agentNames.length > 0 && !request.matrix)) {
    return [...request.configs, ...agentNames];
  }
  const matrix = request.matrix ?? models.defaultMatrix ?? "default";
  return [...matrixConfigs(models, matrix), ...agentNames];
}

/** models.yaml with a configuration per `--agent` definition of the request, and their names. */
export function withRequestAgents(
  models: ModelsConfig,
  request: Pick<BenchRequest, "agents">,
): { models: ModelsConfig; agentNames: string[] } {
  const files = (request.agents ?? []).map((path) => ({ path, shown: shownFile(path) }));
  const { config, names } = withAgentConfigurations(models, files);
  return { models: config, agentNames: names };
}

/**
 * A resume runs the definitions the run started with: a definition (or an injected file) edited since
 * would mix two measurements in one run.
 */
export function checkResumeDefinitions(
  previous: Pick<RunManifest, "runId" | "resolved">,
  resolved: Record<string, Record<string, Configuration>>,
): void {
  const fingerprint = (config: Configuration | undefined) =>
    config?.definition
      ? [config.definition.hash, ...config.definition.files.map((file) => `${file.path}:${file.hash}`)].join(" ")
      : "none";
  for (const [model, configs] of Object.entries(resolved)) {
    for (const [name, config] of Object.entries(configs)) {
      const before = fingerprint(previous.resolved[model]?.[name]);
      const now = fingerprint(config);
      if (before === now) continue;
      throw new InputError(
        "RESUME_DEFINITION_CHANGED",
        `--resume ${previous.runId}: the agent definition of ${name} changed since the run started (${before} → ${now}); start a new run`,
      );
    }
  }
}

/** A path as messages and records show it: relative to the working folder when inside it. */
export function shownFile(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/**
 * `--files`: injected into every configuration of the run that has an agent definition (read and capped
 * once per configuration); refused when none has one.
 */
export function withInjectedFiles(
  resolved: Record<string, Record<string, Configuration>>,
  files: readonly string[] | undefined,
): Record<string, Record<string, Configuration>> {
  if (!files || files.length === 0) return resolved;
  const configs = Object.values(resolved).flatMap((byConfig) => Object.entries(byConfig));
  if (!configs.some(([, config]) => config.definition)) {
    throw new InputError(
      "BAD_FLAG",
      `--files goes with an agent definition (--agent FILE, or a configuration with agent:); none of ${[...new Set(configs.map(([name]) => name))].join(", ")} has one`,
    );
  }
  const shown = files.map(shownFile);
  const injected = new Map<string, AgentDefinition>();
  return Object.fromEntries(
    Object.entries(resolved).map(([model, byConfig]) => [
      model,
      Object.fromEntries(
        Object.entries(byConfig).map(([name, config]) => {
          if (!config.definition) return [name, config];
          const definition = config.definition;
          return [name, { ...config, definition: cached(injected, name, () => withFiles(definition, files, shown)) }];
        }),
      ),
    ]),
  );
}

/** Models a matrix names itself (when `--model` is not given): exported for the CLI. */
export function modelsOfMatrix(modelsFile: string | undefined, matrix: string): string[] | undefined {
  return matrixModels(loadModelsConfig(modelsFile), matrix);
}

export function resolveAll(
  models: ModelsConfig,
  entries: readonly ModelEntry[],
  configs: readonly string[],
  cli: ConfigurationInput | undefined,
  timeoutS: number | undefined,
): Record<string, Record<string, Configuration>> {
  const overrides: ConfigurationInput = {
    ...cli,
    ...(timeoutS === undefined ? {} : { limits: { ...cli?.limits, totalTimeoutMs: timeoutS * 1000 } }),
  };
  return Object.fromEntries(
    entries.map((model) => [
      model.name,
      Object.fromEntries(
        configs.map((configName) => [configName, resolveConfiguration(models, { model, configName, cli: overrides })]),
      ),
    ]),
  );
}

export function withProbe(model: RunModel, probe: ModelProbe | undefined): RunModel {
  if (!probe) return model;
  return {
    ...model,
    provenance: probedProvenance(model.provenance, probe.facts),
    facts: probe.facts,
    warmUp: probe.warmUp,
  };
}

export function describeModel(entry: ModelEntry, request: BenchRequest): RunModel {
  return {
    name: entry.name,
    provider: entry.provider,
    id: providerId(entry),
    provenance: provenanceOf(entry, request),
  };
}

export function versions(): Record<string, string> {
  const root = REPO_ROOT;
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };
  let git = "unknown";
  try {
    git = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" }).trim();
    if (dirty) git += "+dirty";
  } catch {
    // not a git checkout (a tarball): the package version still says what ran
  }
  return {
    onsetlab: pkg.version,
    git,
    node: process.version,
    "@modelcontextprotocol/sdk": pkg.dependencies["@modelcontextprotocol/sdk"] ?? "",
    ollama: pkg.dependencies.ollama ?? "",
  };
}

/** The suite's exposure is the run's default: over models.yaml's defaults, under a configuration's own. */
export function withSuiteDefaults(models: ModelsConfig, suite: Suite | undefined): ModelsConfig {
  if (!suite?.exposure) return models;
  return { ...models, defaults: { ...models.defaults, exposure: suite.exposure } };
}

/** The planner's date line from the suite's clock (none without a clock). */
/** The date line of the repository's own datasets (the mock world's clock, datasets/suite.yaml). */
export function mockWorldContext(): { context?: string } {
  return contextOf(suiteOf(resolveDatasetFiles(undefined)));
}

export function contextOf(suite: Suite | undefined): { context?: string } {
  const context = worldContext(suite?.clock);
  return context === undefined ? {} : { context };
}
