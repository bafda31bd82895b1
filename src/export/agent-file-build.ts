/**
 * The agent file of one model × configuration: the model entry as the provider reads it, the resolved
 * configuration, the registry's servers with absolute working folders (so the file runs from any folder),
 * and the provenance. Refuses what would carry a secret or cannot travel (a plugin provider).
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { mockWorldContext, versions } from "../bench/run/resolve-request.ts";
import { RUN_FILES, runDir } from "../bench/run/store.ts";
import {
  AGENT_FILE_FORMAT,
  type AgentFile,
  type AgentFileModel,
  isAgentFileModel,
  type ScoreRate,
} from "../config/agent-file.ts";
import { loadModelsConfig, type ModelEntry, resolveConfiguration, resolveModel } from "../config/models-yaml.ts";
import { DEFAULT_REGISTRY, loadRegistry, type Registry, type RegistryEntry } from "../mcp/registry.ts";
import { entryBaseDir, FIXTURE_PLACEHOLDER, resetKind } from "../mcp/registry-entry.ts";
import { ExportFlagError } from "./errors.ts";
import { refuseInlineSecrets } from "./secrets.ts";

export interface AgentFileRequest {
  model: string;
  config: string;
  modelsFile?: string;
  /** registry.json of the servers (default: the mock servers). */
  registry?: string;
  /** A run id under the results folder `resultsRoot`, or a run folder: its scores of this model × configuration. */
  fromRun?: { run: string; resultsRoot: string };
  dryRun?: boolean;
}

export async function buildAgentFile(request: AgentFileRequest): Promise<AgentFile> {
  const models = loadModelsConfig(request.modelsFile);
  const entry = resolveModel(models, request.model);
  const configuration = resolveConfiguration(models, { model: entry, configName: request.config });
  await refuseRegistrySecrets(request.registry ?? DEFAULT_REGISTRY);
  const registry = loadRegistry(request.registry);
  const model = travellingModel(entry);
  await refuseInlineSecrets(model, `${entry.source}`);
  const servers = registry.servers.map((server) => travellingServer(server, registry));
  const version = versions();
  return {
    format: AGENT_FILE_FORMAT,
    model,
    config: request.config,
    configuration,
    dry_run: request.dryRun === true,
    servers,
    ...(servers.every((server) => server.mock) ? mockWorldContext() : {}),
    provenance: {
      project: "onsetlab-bench",
      version: version.onsetlab ?? "unknown",
      git: version.git ?? "unknown",
      exportedAt: new Date().toISOString(),
      ...(request.fromRun ? { run: runScores(request.fromRun, entry.name, request.config) } : {}),
    },
  };
}

/**
 * A secret written into the registry is refused first, before the registry is checked field by field: a
 * field such as `apiKey` is an unknown field too, but what the user must hear is that it holds a secret.
 */
async function refuseRegistrySecrets(file: string): Promise<void> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return; // unreadable or not JSON: loadRegistry says so, naming the file
  }
  const servers = (raw as { servers?: unknown }).servers;
  if (!Array.isArray(servers)) return;
  for (const [index, server] of servers.entries()) {
    const name = (server as { name?: string } | null)?.name;
    await refuseInlineSecrets(server, `--registry ${file}: servers[${index}]${name ? ` (${name})` : ""}`);
  }
}

/** The provider's side of the entry (the model's own axes are in the resolved configuration already). */
function travellingModel(entry: ModelEntry): AgentFileModel {
  const { agent: _axes, ...provider } = entry;
  if (!isAgentFileModel(provider)) {
    const name = "plugin" in provider ? String(provider.plugin) : provider.provider;
    throw new ExportFlagError(
      "EXPORT_PLUGIN_PROVIDER",
      `--model ${entry.name}: a plugin provider (${name}) lives in this checkout and cannot be exported; export an ollama, openai or sim model`,
    );
  }
  return provider;
}

/**
 * A stdio server's folders made absolute, so it starts wherever the agent file is as it does in the
 * bench: its working folder, and a `fixture` server's fixture folder. A `fixture` server with no working
 * folder keeps none (it runs in its fresh copy), and one naming `{fixture}` is filled in when it starts.
 */
function travellingServer(server: RegistryEntry, registry: Registry): RegistryEntry {
  if (server.transport !== "stdio") return server;
  const baseDir = entryBaseDir(registry, server.name);
  const inCopy = server.cwd === undefined ? resetKind(server) === "fixture" : server.cwd.includes(FIXTURE_PLACEHOLDER);
  const cwd = inCopy ? server.cwd : resolve(baseDir, server.cwd ?? ".");
  const script = server.args?.[0];
  if (server.mock && cwd && script && !isAbsolute(script) && !existsSync(join(cwd, script))) {
    throw new ExportFlagError(
      "EXPORT_SERVERS_NOT_BUILT",
      `--registry ${registry.file}: ${server.name}'s ${join(cwd, script)} does not exist; run pnpm build first (pnpm export does)`,
    );
  }
  return {
    ...server,
    ...(cwd === undefined ? {} : { cwd }),
    ...(server.fixture_dir === undefined ? {} : { fixture_dir: resolve(baseDir, server.fixture_dir) }),
  };
}

/** The summary row of this model × configuration in a finished run. */
function runScores(
  { run, resultsRoot }: { run: string; resultsRoot: string },
  model: string,
  config: string,
): NonNullable<AgentFile["provenance"]["run"]> {
  const dir = run.includes("/") ? resolve(run) : runDir(run, resultsRoot);
  const file = join(dir, RUN_FILES.summary);
  let summary: { runId: string; simulated: boolean; rows: Record<string, unknown>[] };
  try {
    summary = JSON.parse(readFileSync(file, "utf8")) as typeof summary;
  } catch (error) {
    throw new ExportFlagError(
      "EXPORT_RUN_UNREADABLE",
      `--from-run ${run}: cannot read ${file} (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  const row = summary.rows.find(
    (candidate) => candidate.model === model && candidate.config === config && candidate.group === null,
  );
  if (!row) {
    throw new ExportFlagError(
      "EXPORT_RUN_NO_ROW",
      `--from-run ${run}: the run has no row for --model ${model} × --config ${config}`,
    );
  }
  const scores = Object.fromEntries(Object.entries(row).filter(([, value]) => isRate(value))) as Record<
    string,
    ScoreRate
  >;
  return { runId: summary.runId, model, config, simulated: summary.simulated, scores };
}

function isRate(value: unknown): value is ScoreRate {
  return typeof value === "object" && value !== null && "k" in value && "n" in value && "value" in value;
}
