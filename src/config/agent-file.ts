/**
 * The agent file (`pnpm export --format config`): one model × configuration taken out of the harness, in
 * one YAML (or JSON) file — the model entry, the resolved configuration, the servers (as their registry
 * entries, with the variables they take from the environment named, never given) and its provenance.
 * Validated against docs/schemas/agent-file.schema.json on read.
 * `agent --agent-file`, `bench --agent-file` and the exported script read it; the bench reads it as a
 * models file holding one model and one configuration (modelsConfigOfAgentFile).
 *
 * Bundled into the exported script (src/export/script-main.ts): nothing here may import a module that
 * looks for the repository at load time (paths.ts).
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { stringify } from "yaml";
import schema from "../../docs/schemas/agent-file.schema.json" with { type: "json" };
import type { Registry, RegistryEntry } from "../mcp/registry.ts";
import type { ProviderEntry } from "../models/entry.ts";
import { isOllamaEntry, type OllamaProviderEntry } from "../models/providers/ollama.ts";
import { isOpenAIEntry, type OpenAIProviderEntry } from "../models/providers/openai.ts";
import { isSimEntry, type SimProviderEntry } from "../models/providers/sim.ts";
import type { Configuration } from "./configuration.ts";
import { AgentFileError } from "./errors.ts";
import { yamlValue } from "./yaml-text.ts";

export const AGENT_FILE_FORMAT = "onsetlab-agent/1";

/** The providers an agent file can name (a plugin's module lives in a checkout, so it does not travel). */
export type AgentFileModel = OllamaProviderEntry | OpenAIProviderEntry | SimProviderEntry;

export function isAgentFileModel(entry: ProviderEntry): entry is AgentFileModel {
  return isOllamaEntry(entry) || isOpenAIEntry(entry) || isSimEntry(entry);
}

/** A rate as summary.json gives it: value, 95% interval, k of n. */
export interface ScoreRate {
  value: number | null;
  lo: number | null;
  hi: number | null;
  k: number;
  n: number;
}

export interface AgentFileProvenance {
  project: string;
  version: string;
  /** The checkout's commit, `+dirty` with uncommitted changes. */
  git: string;
  exportedAt: string;
  /** `--from-run RUN`: the run the configuration was chosen from, and its scores there. */
  run?: { runId: string; model: string; config: string; simulated: boolean; scores: Record<string, ScoreRate> };
}

export interface AgentFile {
  format: typeof AGENT_FILE_FORMAT;
  model: AgentFileModel;
  /** The configuration's name in models.yaml. */
  config: string;
  /** Resolved: every axis and limit, as resolveConfiguration gave it. */
  configuration: Configuration;
  /** Write tools answer with a preview of the call instead of running it. */
  dry_run: boolean;
  servers: RegistryEntry[];
  /** Facts every planner prompt gets (the mock world's date, for the mock servers). */
  context?: string;
  provenance: AgentFileProvenance;
}

let compiled: ReturnType<Ajv["compile"]> | undefined;

/** Parses and validates agent-file text (YAML, of which JSON is a subset); `file` is only for messages. */
export function parseAgentFile(text: string, file: string): AgentFile {
  const value = yamlValue(
    text,
    file,
    {},
    (message, cause) => new AgentFileError("AGENT_FILE_INVALID", message, { context: { file }, cause }),
  );
  return validateAgentFile(value, file);
}

/** A parsed value checked against docs/schemas/agent-file.schema.json. */
export function validateAgentFile(value: unknown, file: string): AgentFile {
  compiled ??= new Ajv({ allErrors: true }).compile(schema);
  if (!compiled(value)) {
    const first = (compiled.errors ?? [])[0] as ErrorObject | undefined;
    const where = first?.instancePath ? first.instancePath.slice(1).replaceAll("/", ".") : "(top level)";
    const detail = first?.params && "additionalProperty" in first.params ? ` (${first.params.additionalProperty})` : "";
    throw new AgentFileError(
      "AGENT_FILE_INVALID",
      `${file}: ${where}: ${first?.message ?? "invalid"}${detail} (schema docs/schemas/agent-file.schema.json)`,
      { context: { file, errors: compiled.errors } },
    );
  }
  return value as AgentFile;
}

export function readAgentFile(file: string): AgentFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new AgentFileError(
      "AGENT_FILE_UNREADABLE",
      `--agent-file ${file}: cannot read it (${(error as Error).message})`,
      {
        context: { file },
        cause: error,
      },
    );
  }
  return parseAgentFile(text, file);
}

/**
 * A value shown on one line of a comment or heading: with a line break or another control character it
 * is shown JSON-quoted, so a model name cannot end the comment and start YAML of its own.
 */
export function oneLine(value: string): string {
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(value) ? JSON.stringify(value) : value;
}

/** The file's text: YAML with a header saying what it is, or JSON. */
export function formatAgentFile(agent: AgentFile, as: "yaml" | "json"): string {
  if (as === "json") return `${JSON.stringify(agent, null, 2)}\n`;
  const header = [
    `# OnsetLab agent: ${oneLine(agent.model.name)} × ${oneLine(agent.config)}, exported by ${agent.provenance.project} ${agent.provenance.version}.`,
    '# Run it: pnpm agent --agent-file THIS_FILE "<query>"; benchmark it: pnpm bench --agent-file THIS_FILE.',
    "# Variables passed through (servers[].env names, or a name given null; model.apiKeyEnv) are named, never given: set them where it runs.",
    "# Schema: docs/schemas/agent-file.schema.json",
  ];
  return `${header.join("\n")}\n${stringify(agent, { lineWidth: 0 })}`;
}

/** Is this parsed YAML an agent file (rather than a models.yaml)? */
export function isAgentFileValue(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { format?: unknown }).format === AGENT_FILE_FORMAT;
}

/** The file's servers as a registry (their working folders are absolute: the export made them so). */
export function agentFileRegistry(agent: AgentFile, file: string): Registry {
  return { file, baseDir: dirname(file), servers: agent.servers };
}
