/**
 * models.yaml: model entries, named configurations (the DESIGN §3 axes), matrices and defaults,
 * validated on load with errors that name the file and the key path. Resolution follows the
 * precedence CLI flag > the model's own entry > the configuration > `defaults:` > built-in.
 * It composes the model layer's provider entries with the agent's configurations, so it sits above
 * both (DESIGN §11): the CLI, the bench and the reports read models.yaml through here.
 */

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { DECODINGS, resolveAgentConfig } from "../agent/types.ts";
import { DEFAULT_EXPOSURE, EXPOSURES } from "../bench/dataset/exposure.ts";
import { dropUndefined } from "../json.ts";
import type { ProviderEntry } from "../models/entry.ts";
import { fromOllamaOptions } from "../models/ollama-wire.ts";
import { definitionNamed, providerDefinitions } from "../models/provider-registry.ts";
import { ollamaDefinition } from "../models/providers/ollama.ts";
import type { GenerationOptions } from "../models/types.ts";
import { REPO_ROOT } from "../paths.ts";
import { loadAgentDefinition } from "./agent-definition.ts";
import { type AgentFile, isAgentFileValue, validateAgentFile } from "./agent-file.ts";
import type { Configuration, ConfigurationInput } from "./configuration.ts";
import { ModelsConfigError, UnknownConfigurationError } from "./errors.ts";
import { limitsSchema, positiveInt, toLimits } from "./limits.ts";
import { yamlValue } from "./yaml-text.ts";

export const DEFAULT_MODELS_FILE = join(REPO_ROOT, "models.yaml");

/** A model: what its provider is made from, and the configuration axes the model always uses. */
export type ModelEntry = ProviderEntry & {
  /** Configuration axes this model always uses (over the configuration, under CLI flags). */
  agent: ConfigurationInput;
};

export interface MatrixSpec {
  configs: string[];
  models?: string[];
}

export interface ModelsConfig {
  file: string;
  defaults: ConfigurationInput;
  models: Record<string, ModelEntry>;
  configurations: Record<string, ConfigurationInput>;
  matrices: Record<string, MatrixSpec>;
  defaultMatrix?: string;
  /** `metrics:` — absolute paths of modules that each add per-item metrics (src/bench/scoring/metric-registry.ts). */
  metricModules: string[];
}

// ─── the file's schema (snake_case, as written) ─────────────────────────────────────────────────

const axesSchema = z.strictObject({
  strategy: z.enum(["auto", "rewoo", "react", "native", "jsonl"]).optional(),
  filter: z.union([positiveInt, z.literal("all")]).optional(),
  skills: z.boolean().optional(),
  fallback: z.boolean().optional(),
  routing_llm: z.boolean().optional(),
  exposure: z.enum(EXPOSURES).optional(),
  // The OnsetLab axes (src/agent/types.ts): the first value of each is the design document's pipeline.
  router: z.enum(["onsetlab", "plus"]).optional(),
  relevance: z.enum(["onsetlab", "plus"]).optional(),
  ranking: z.enum(["onsetlab", "plus"]).optional(),
  tool_terms: z.enum(["description", "schema"]).optional(),
  rank_clauses: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  workflows: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  tool_selection: z.enum(["ranked", "model"]).optional(),
  parser: z.enum(["onsetlab", "tolerant"]).optional(),
  plan_steps: z.enum(["one", "many"]).optional(),
  plan_examples: z.enum(["placeholders", "concrete"]).optional(),
  field_refs: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  validation: z.enum(["strict", "lenient"]).optional(),
  rescue: z.union([z.enum(["onsetlab", "extended", "off"]), z.boolean()]).optional(),
  fallback_trigger: z.enum(["all_failed", "any_failed"]).optional(),
  fallback_iterations: positiveInt.optional(),
  react_protocol: z.enum(["call", "json"]).optional(),
  react_ending: z.enum(["failure_message", "solver"]).optional(),
  write_guard: z.union([z.enum(["per_tool", "per_call", "off"]), z.boolean()]).optional(),
  builtins: z.enum(["always", "ranked"]).optional(),
  solver_data: z.enum(["per_result", "shared"]).optional(),
  skills_in_react: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  history: z.enum(["answers", "results"]).optional(),
  history_filter: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  history_compact: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  // native: execute tool calls the server left in the answer's text (native-recover)
  recover_text_calls: z.union([z.enum(["off", "on"]), z.boolean()]).optional(),
  decoding: z.enum(DECODINGS).optional(),
  limits: limitsSchema.optional(),
});

const optionsSchema = z.strictObject({
  temperature: z.number().min(0).optional(),
  seed: z.number().int().optional(),
  num_predict: positiveInt.optional(),
  num_ctx: z.union([positiveInt, z.literal("auto")]).optional(),
  stop: z.array(z.string()).optional(),
  keep_alive: z.union([z.string(), z.number()]).optional(),
});

/** The keys every entry takes; the rest are its provider's own (its definition's `entrySchema`). */
const commonModelSchema = z.object({
  // a built-in's name, a name registered with registerProvider, or module:./file.ts (src/models/provider-registry.ts)
  provider: z.string().min(1),
  model: z.string().min(1).optional(),
  options: optionsSchema.optional(),
  timeout_ms: positiveInt.optional(),
  retry_ms: z.array(z.number().int().min(0)).optional(),
  agent: axesSchema.optional(),
});

const modelSchema = commonModelSchema.catchall(z.unknown()).superRefine((entry, context) => {
  if (entry.provider === "module:") {
    context.addIssue({ code: "custom", path: ["provider"], message: "expected module:<path to a provider module>" });
    return;
  }
  const definition = definitionNamed(entry.provider);
  const checked = definition.entrySchema.safeParse(ownKeys(entry));
  for (const issue of checked.success ? [] : checked.error.issues) {
    if (issue.code !== "unrecognized_keys") {
      context.addIssue({ code: "custom", path: issue.path, message: issue.message });
      continue;
    }
    for (const key of issue.keys) {
      const takers = providersTaking(key);
      context.addIssue(
        takers.length === 0
          ? { code: "custom", path: [], message: `Unrecognized key: "${key}"` }
          : {
              code: "custom",
              path: [key],
              message: `only ${article(takers[0] as string)} ${takers.join(" or ")} entry takes \`${key}\``,
            },
      );
    }
  }
});

/** An entry's keys besides the common ones: its provider's own. */
function ownKeys(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !(key in commonModelSchema.shape)));
}

/** The providers whose entries take a key the entry's own provider does not. */
function providersTaking(key: string): string[] {
  return [...new Set(providerDefinitions().flatMap((d) => (key in d.entrySchema.shape ? [d.name] : [])))];
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

const matrixSchema = z.union([
  z.array(z.string()).min(1),
  z.strictObject({ configs: z.array(z.string()).min(1), models: z.array(z.string()).min(1).optional() }),
]);

const fileSchema = z
  .strictObject({
    defaults: axesSchema.optional(),
    models: z.record(z.string(), modelSchema).optional(),
    // `agent: agents/support.md`: an agent definition (agent-definition.ts), relative to this file
    configurations: z.record(z.string(), axesSchema.extend({ agent: z.string().min(1).optional() })),
    matrices: z.record(z.string(), matrixSchema).optional(),
    default_matrix: z.string().optional(),
    metrics: z.array(z.string().min(1)).optional(),
  })
  .superRefine((file, context) => {
    for (const [name, matrix] of Object.entries(file.matrices ?? {})) {
      const configs = Array.isArray(matrix) ? matrix : matrix.configs;
      configs.forEach((config, index) => {
        if (config !== "*" && !(config in file.configurations)) {
          const path = Array.isArray(matrix) ? ["matrices", name, index] : ["matrices", name, "configs", index];
          context.addIssue({ code: "custom", path, message: `no configuration named "${config}"` });
        }
      });
    }
    if (file.default_matrix !== undefined && !(file.default_matrix in (file.matrices ?? {}))) {
      context.addIssue({
        code: "custom",
        path: ["default_matrix"],
        message: `no matrix named "${file.default_matrix}"`,
      });
    }
  });

type FileAxes = z.infer<typeof axesSchema>;
type FileModel = z.infer<typeof modelSchema>;

// ─── loading ────────────────────────────────────────────────────────────────────────────────────

export function loadModelsConfig(file: string = DEFAULT_MODELS_FILE): ModelsConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ModelsConfigError("MODELS_CONFIG_UNREADABLE", `cannot read ${file}: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  return parseModelsConfig(text, file);
}

/** Parses and validates models.yaml text; `file` is only for messages. */
export function parseModelsConfig(text: string, file: string): ModelsConfig {
  // `merge`: a configuration may build on another with `<<: *anchor` (onsetlab-plus-rewoo does)
  const value = yamlValue(
    text,
    file,
    { merge: true },
    (message, cause) => new ModelsConfigError("MODELS_CONFIG_INVALID", message, { context: { file }, cause }),
  );
  // an agent file (pnpm export --format config) is a models file of one model and one configuration
  if (isAgentFileValue(value)) return modelsConfigOfAgentFile(validateAgentFile(value, file), file);
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${keyPath(issue.path) || "(top level)"}: ${issue.message}`);
    throw new ModelsConfigError("MODELS_CONFIG_INVALID", `${file}: ${problems.join("; ")}`, {
      context: { file, problems },
      cause: parsed.error,
    });
  }
  const data = parsed.data;
  return {
    file,
    defaults: toAgentInput(data.defaults),
    models: Object.fromEntries(
      Object.entries(data.models ?? {}).map(([name, entry]) => [
        name,
        toModelEntry(name, entry, `${file}: models.${name}`, file),
      ]),
    ),
    configurations: Object.fromEntries(
      Object.entries(data.configurations).map(([name, { agent, ...axes }]) => [
        name,
        agent === undefined
          ? toAgentInput(axes)
          : definitionInput(agent, toAgentInput(axes), file, `configurations.${name}`),
      ]),
    ),
    matrices: Object.fromEntries(
      Object.entries(data.matrices ?? {}).map(([name, matrix]) => [
        name,
        Array.isArray(matrix) ? { configs: matrix } : dropUndefined({ configs: matrix.configs, models: matrix.models }),
      ]),
    ),
    ...(data.default_matrix === undefined ? {} : { defaultMatrix: data.default_matrix }),
    metricModules: (data.metrics ?? []).map((path) => resolve(dirname(file), path)),
  };
}

/**
 * A configuration with an agent definition: the definition's axes (its protocol as the strategy, its
 * limits), then the configuration's own keys over them; a strategy other than the protocol is refused.
 */
function definitionInput(path: string, own: ConfigurationInput, file: string, key: string): ConfigurationInput {
  const { definition, axes } = loadAgentDefinition(resolve(dirname(file), path), path);
  if (own.strategy !== undefined && own.strategy !== definition.protocol) {
    throw new ModelsConfigError(
      "MODELS_CONFIG_INVALID",
      `${file}: ${key}.strategy: "${own.strategy}" clashes with agent ${path}, which drives the ${definition.protocol} protocol; leave strategy out`,
      { context: { file } },
    );
  }
  return { ...axes, ...own, limits: { ...axes.limits, ...own.limits }, definition };
}

/**
 * Adds a configuration per agent definition file (`--agent FILE`), named by the definition; returns the
 * models config and the names, in order. A name models.yaml already uses for anything but this same
 * definition is refused.
 */
export function withAgentConfigurations(
  config: ModelsConfig,
  files: readonly { path: string; shown: string }[],
): { config: ModelsConfig; names: string[] } {
  const configurations = { ...config.configurations };
  const names: string[] = [];
  for (const { path, shown } of files) {
    const { definition, axes } = loadAgentDefinition(path, shown);
    // the same definition as a configuration of models.yaml (`agent:`) is that configuration
    if (configurations[definition.name]?.definition?.hash === definition.hash) {
      names.push(definition.name);
      continue;
    }
    if (definition.name in configurations) {
      throw new UnknownConfigurationError(
        "AGENT_NAME_TAKEN",
        `--agent ${shown}: its name "${definition.name}" is already a configuration (in ${config.file} or another --agent); set \`name:\` in its front matter`,
        { context: { file: shown } },
      );
    }
    configurations[definition.name] = { ...axes, definition };
    names.push(definition.name);
  }
  return { config: { ...config, configurations }, names };
}

/**
 * An agent file as a models file: its model (under its name) and its configuration (under its name,
 * already resolved, so resolveConfiguration gives it back unchanged unless CLI flags override an axis).
 */
export function modelsConfigOfAgentFile(agent: AgentFile, file: string): ModelsConfig {
  return {
    file,
    defaults: {},
    models: { [agent.model.name]: { ...agent.model, source: `${file}: model`, agent: {} } },
    configurations: { [agent.config]: agent.configuration },
    matrices: {},
    metricModules: [],
  };
}

function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
}

function toAgentInput(axes: FileAxes | undefined): ConfigurationInput {
  if (!axes) return {};
  const limits = axes.limits ? toLimits(axes.limits) : undefined;
  return dropUndefined({
    strategy: axes.strategy,
    filter: axes.filter,
    skills: axes.skills,
    fallback: axes.fallback,
    routingLlm: axes.routing_llm,
    exposure: axes.exposure,
    router: axes.router,
    relevance: axes.relevance,
    ranking: axes.ranking,
    toolTerms: axes.tool_terms,
    rankClauses: onOff(axes.rank_clauses),
    workflows: onOff(axes.workflows),
    toolSelection: axes.tool_selection,
    parser: axes.parser,
    planSteps: axes.plan_steps,
    planExamples: axes.plan_examples,
    fieldRefs: onOff(axes.field_refs),
    validation: axes.validation,
    rescue: axes.rescue,
    fallbackTrigger: axes.fallback_trigger,
    fallbackIterations: axes.fallback_iterations,
    reactProtocol: axes.react_protocol,
    reactEnding: axes.react_ending,
    writeGuard: axes.write_guard,
    builtins: axes.builtins,
    solverData: axes.solver_data,
    skillsInReact: onOff(axes.skills_in_react),
    history: axes.history,
    historyFilter: onOff(axes.history_filter),
    historyCompact: onOff(axes.history_compact),
    recoverTextCalls: onOff(axes.recover_text_calls),
    decoding: axes.decoding,
    limits,
  });
}

/** An on/off axis as written (`on`/`off`, or a boolean). */
function onOff(value: "on" | "off" | boolean | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "on" || value === true;
}

function toModelEntry(name: string, entry: FileModel, source: string, file: string): ModelEntry {
  const common = dropUndefined({
    name,
    options: toGenerationOptions(entry.options),
    timeoutMs: entry.timeout_ms,
    retryMs: entry.retry_ms,
    source,
  });
  const place = dropUndefined({ provider: entry.provider, model: entry.model, file });
  const provider = definitionNamed(entry.provider).toEntry(ownKeys(entry), common, place);
  return { ...provider, agent: toAgentInput(entry.agent) };
}

/** models.yaml's `options` use Ollama's names (num_predict, num_ctx, keep_alive), so Ollama's mapping reads them. */
function toGenerationOptions(options: FileModel["options"]): GenerationOptions {
  // `auto` is the provider's default: no window set here
  const numCtx = options?.num_ctx === "auto" ? undefined : options?.num_ctx;
  return fromOllamaOptions(options && { ...options, num_ctx: numCtx }, options?.keep_alive);
}

// ─── resolution ─────────────────────────────────────────────────────────────────────────────────

/**
 * An entry of models.yaml by name; else `sim:<profile>` → the simulator, `openai:<model>` → the openai
 * provider with its defaults, `ollama:<model>` or any other name → Ollama serving that model.
 */
export function resolveModel(config: ModelsConfig, name: string): ModelEntry {
  const trimmed = name.trim();
  if (trimmed === "")
    throw new UnknownConfigurationError("BAD_MODEL_NAME", "--model needs a model name, e.g. qwen2.5:3b");
  const listed = config.models[trimmed];
  if (listed) return listed;
  // `<provider>:<model>` when that provider has a naming rule (sim:<profile>, openai:<model>, ollama:<model>)
  const [, prefix, rest] = /^([\w-]+):(.+)$/.exec(trimmed) ?? [];
  const naming = providerDefinitions().find((d) => d.name === prefix)?.naming;
  if (naming && rest) {
    const source = `model name "${trimmed}" (${prefix}:<${naming.rest}>)`;
    return { ...naming.entry(rest, { name: trimmed, options: {}, source }), agent: {} };
  }
  const source = `model name "${trimmed}" (not in ${config.file}: served by Ollama)`;
  return { ...ollamaDefinition.naming.entry(trimmed, { name: trimmed, options: {}, source }), agent: {} };
}

/** The resolved agent configuration: CLI > the model's entry > the configuration > defaults > built-in. */
export function resolveConfiguration(
  config: ModelsConfig,
  args: { model?: ModelEntry; configName: string; cli?: ConfigurationInput },
): Configuration {
  const configuration = config.configurations[args.configName];
  if (!configuration) {
    throw new UnknownConfigurationError(
      "UNKNOWN_CONFIGURATION",
      `--config "${args.configName}" is not a configuration in ${config.file}; expected one of: ${Object.keys(config.configurations).join(", ")}`,
      { context: { file: config.file, configName: args.configName } },
    );
  }
  // Lowest first: each layer overrides the one before it, limits key by key.
  const layers = [config.defaults, configuration, args.model?.agent ?? {}, args.cli ?? {}];
  const merged: ConfigurationInput = {};
  const limits: ConfigurationInput["limits"] = {};
  for (const layer of layers) {
    Object.assign(merged, dropUndefined(layer));
    Object.assign(limits, dropUndefined(layer.limits ?? {}));
  }
  const { exposure, ...agent } = merged;
  return { ...resolveAgentConfig({ ...agent, limits }), exposure: exposure ?? DEFAULT_EXPOSURE };
}

/** The configuration names of a matrix, in order (`*` expands to every configuration). */
export function matrixConfigs(config: ModelsConfig, matrix: string): string[] {
  const names = matrixSpec(config, matrix).configs.flatMap((name) =>
    name === "*" ? Object.keys(config.configurations) : [name],
  );
  return [...new Set(names)];
}

/** The models a matrix names, when it names any (else the caller's `--model`). */
export function matrixModels(config: ModelsConfig, matrix: string): string[] | undefined {
  return matrixSpec(config, matrix).models;
}

function matrixSpec(config: ModelsConfig, matrix: string): MatrixSpec {
  const spec = config.matrices[matrix];
  if (!spec) {
    throw new UnknownConfigurationError(
      "UNKNOWN_MATRIX",
      `--matrix "${matrix}" is not a matrix in ${config.file}; expected one of: ${Object.keys(config.matrices).join(", ")}`,
      { context: { file: config.file, matrix } },
    );
  }
  return spec;
}
