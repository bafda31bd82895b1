/**
 * `node agent.mjs --serve`: the exported agent behind the harness's own routes (src/serve/agent-routes.ts:
 * GET /health, POST /run as JSON or server-sent events). A request runs the agent file's model and
 * configuration: it may name them (they must be the file's) and may ask for `dryRun`; the harness's other
 * switches (registry, itemId) have no meaning here and are refused naming the field.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { agentRoutes, type QueryRunner } from "../serve/agent-routes.ts";
import { ApiError } from "../serve/errors.ts";
import type { ExportedAgent } from "./exported-agent.ts";

export interface ServedAgent {
  url: string;
  close(): Promise<void>;
}

export function exportedAgentRunner(agent: ExportedAgent): QueryRunner {
  const { model, config } = agent.file;
  return async (request, hooks) => {
    if (request.model !== model.name) {
      throw new ApiError(400, "UNKNOWN_MODEL", `model "${request.model}": this agent runs "${model.name}" only`, {
        field: "model",
      });
    }
    if (request.config !== undefined && request.config !== config) {
      throw new ApiError(400, "UNKNOWN_CONFIGURATION", `config "${request.config}": this agent runs "${config}" only`, {
        field: "config",
      });
    }
    for (const field of ["registry", "itemId"] as const) {
      if (request[field] !== undefined) {
        throw new ApiError(400, "UNSUPPORTED", `${field}: an exported agent runs its own servers on free queries`, {
          field,
        });
      }
    }
    for (const field of ["messages", "conversationId", "allowed_tools", "max_tool_calls", "timeout_s"] as const) {
      if (request[field] !== undefined) {
        throw new ApiError(
          400,
          "UNSUPPORTED",
          `${field}: an exported agent answers single queries with its own limits`,
          {
            field,
          },
        );
      }
    }
    const result = await agent.run(request.query!, {
      signal: hooks.signal,
      ...(request.dryRun === undefined ? {} : { dryRun: request.dryRun }),
      ...(hooks.onEvent ? { onEvent: hooks.onEvent } : {}),
    });
    return { answer: result.answer, result };
  };
}

export async function serveAgent(agent: ExportedAgent, options: { port: number; host: string }): Promise<ServedAgent> {
  const app = agentRoutes(exportedAgentRunner(agent), (value) => agent.redactor.value(value));
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () => resolve(started));
    started.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
