/**
 * An agent file made runnable: its model's provider, its servers connected once (stdio, as their
 * registry entries say), and one query at a time through the pipeline with its configuration. With
 * `dry_run` (the file's or the caller's), write tools answer with previews.
 */

import { runAgent } from "../agent/agent.ts";
import type { AgentEventListener } from "../agent/events.ts";
import type { AgentResult } from "../agent/types.ts";
import { DryRunToolHost } from "../bench/run/dry-run.ts";
import { type AgentFile, agentFileRegistry } from "../config/agent-file.ts";
import { agentConfigOf } from "../config/configuration.ts";
import { ClientPool } from "../mcp/pool.ts";
import { passedThroughEnv } from "../mcp/registry-entry.ts";
import { createProvider } from "../models/factory.ts";
import type { ModelProvider } from "../models/types.ts";
import { type Redactor, redactorOf } from "../redact.ts";
import type { ToolHost } from "../tool-protocol/types.ts";

export interface ExportedAgent {
  readonly file: AgentFile;
  /** Blanks the values of the variables the file names (servers' env, the API key's) wherever output leaves. */
  readonly redactor: Redactor;
  run(
    query: string,
    options?: { signal?: AbortSignal; dryRun?: boolean; onEvent?: AgentEventListener },
  ): Promise<AgentResult>;
  close(): Promise<void>;
}

export async function openAgent(
  file: AgentFile,
  options: { file: string; dryRun?: boolean; model?: ModelProvider },
): Promise<ExportedAgent> {
  const model = options.model ?? createProvider(file.model);
  const pool = await ClientPool.open(agentFileRegistry(file, options.file), { transport: "stdio" });
  const dryRunHost = new DryRunToolHost(pool);
  const alwaysDry = file.dry_run || options.dryRun === true;
  const hostFor = (dryRun: boolean | undefined): ToolHost => (alwaysDry || dryRun ? dryRunHost : pool);
  const secretNames = [
    ...file.servers.flatMap(passedThroughEnv),
    ...(file.model.provider === "openai" && file.model.apiKeyEnv ? [file.model.apiKeyEnv] : []),
  ];
  return {
    file,
    redactor: redactorOf(secretNames),
    run: (query, run = {}) =>
      runAgent(query, {
        config: agentConfigOf(file.configuration),
        model,
        tools: hostFor(run.dryRun),
        ...(file.context === undefined ? {} : { context: file.context }),
        ...(run.signal ? { signal: run.signal } : {}),
        ...(run.onEvent ? { onEvent: run.onEvent } : {}),
      }),
    close: () => pool.close(),
  };
}
