/**
 * `pnpm export`: one model × configuration out of the harness, as an agent file (`config`), a bundled
 * script (`script`), or a deployment (`docker` with Ollama, `docker-vllm` with vLLM). Everything is
 * checked before the first file is written: the format, the output folder (empty, or `--force`), the
 * model's fitness for the format, and that no secret value would be written.
 */

import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type AgentFile, formatAgentFile } from "../config/agent-file.ts";
import { isSimulator } from "../models/decide-provenance.ts";
import { type AgentFileRequest, buildAgentFile } from "./agent-file-build.ts";
import { composeFile, containerAgentFile, dockerfile, dockerReadme, type Engine, envExample } from "./docker.ts";
import { ExportFlagError } from "./errors.ts";
import { huggingFaceId } from "./hf-ids.ts";
import { bundleAgentScript } from "./script.ts";

export const EXPORT_FORMATS = ["config", "docker", "docker-vllm", "script"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest extends AgentFileRequest {
  format: ExportFormat;
  out: string;
  force?: boolean;
  /** `config`: write agent.json instead of agent.yaml. */
  json?: boolean;
  /** `docker-vllm`: the Hugging Face id of a model the table does not know. */
  hfId?: string;
}

export interface ExportOutcome {
  dir: string;
  /** Names of the files written, in writing order. */
  files: string[];
  agent: AgentFile;
}

export function parseFormat(value: string | undefined): ExportFormat {
  if (value !== undefined && (EXPORT_FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new ExportFlagError(
    "BAD_FORMAT",
    value === undefined
      ? `--format is required: one of ${EXPORT_FORMATS.join(", ")}`
      : `--format must be one of ${EXPORT_FORMATS.join(", ")}, not "${value}"`,
  );
}

export async function exportAgent(request: ExportRequest): Promise<ExportOutcome> {
  const dir = resolve(request.out);
  checkOutputFolder(dir, request.force === true);
  const agent = await buildAgentFile(request);
  const files = plan(agent, request);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) {
    if (content === BUNDLE) await bundleAgentScript(join(dir, name));
    else writeFileSync(join(dir, name), content);
  }
  return { dir, files: files.map(([name]) => name), agent: deployedAgent(agent, request) };
}

/** Stands for agent.mjs in the plan: bundled by esbuild, not written from a string. */
const BUNDLE = Symbol("bundle");

/** The files of a format, in writing order (all checks done before any is written). */
function plan(agent: AgentFile, request: ExportRequest): [string, string | typeof BUNDLE][] {
  const { format } = request;
  if (format === "config")
    return [[request.json ? "agent.json" : "agent.yaml", formatAgentFile(agent, request.json ? "json" : "yaml")]];
  if (isSimulator(agent.model)) {
    throw new ExportFlagError(
      "EXPORT_SIM_MODEL",
      `--format ${format}: --model ${agent.model.name} is the simulator, which answers only the dataset's queries inside the harness; export a served model (e.g. qwen2.5:3b; \`pnpm standin\` serves the simulator behind Ollama's API)`,
    );
  }
  if (format === "script")
    return [
      ["agent.mjs", BUNDLE],
      ["agent.yaml", formatAgentFile(agent, "yaml")],
    ];
  const engine: Engine = format === "docker" ? "ollama" : "vllm";
  if (engine === "ollama" && agent.model.provider !== "ollama") {
    throw new ExportFlagError(
      "EXPORT_NOT_OLLAMA",
      `--format docker serves the model with Ollama, but --model ${agent.model.name} is an ${agent.model.provider} model; use --format docker-vllm or script`,
    );
  }
  const deployed = deployedAgent(agent, request);
  const sample = agent.servers.every((server) => server.mock)
    ? "List the open issues in acme/webapp"
    : "<your request>";
  return [
    ["agent.mjs", BUNDLE],
    ["agent.yaml", formatAgentFile(deployed, "yaml")],
    ["Dockerfile", dockerfile()],
    ["compose.yaml", composeFile(deployed, engine)],
    [".env.example", envExample(deployed, engine)],
    ["README.md", dockerReadme(deployed, engine, sample)],
  ];
}

/** The agent file as the format runs it (the docker formats reach the model at the model server's service). */
function deployedAgent(agent: AgentFile, request: ExportRequest): AgentFile {
  if (request.format === "docker") return containerAgentFile(agent, "ollama");
  if (request.format === "docker-vllm")
    return containerAgentFile(agent, "vllm", huggingFaceId(agent.model, request.hfId));
  return agent;
}

function checkOutputFolder(dir: string, force: boolean): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
      throw new ExportFlagError("OUT_NOT_A_FOLDER", `--out ${dir}: is a file, not a folder`);
    }
    throw error;
  }
  if (entries.length > 0 && !force) {
    throw new ExportFlagError(
      "OUT_NOT_EMPTY",
      `--out ${dir}: the folder is not empty (${entries.length} entries); choose an empty one or pass --force to write over it`,
    );
  }
}
