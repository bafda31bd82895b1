/**
 * `mcp [--http [--port N]] [--results DIR] [--models FILE]`: the harness as an MCP server — over stdio
 * (the default: an MCP client starts this command), or over Streamable HTTP at http://127.0.0.1:PORT/mcp.
 * stdout carries protocol frames only; notes go to stderr.
 */
import { once } from "node:events";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Command } from "commander";
import { Hono } from "hono";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { conversationRunner } from "../serve/conversation-runs.ts";
import { ConversationStore } from "../serve/conversation-store.ts";
import { createMcpServer, type McpServices } from "../serve/mcp-server.ts";
import { benchQueryRunner } from "../serve/query-runner.ts";
import { listen } from "../serve/server.ts";
import { HarnessService } from "../serve/service.ts";
import { FlagError, parsePort } from "./flags.ts";

interface McpFlags {
  http?: boolean;
  port: string;
  results?: string;
  models?: string;
  dataset?: string[];
}

export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description("serve the harness as an MCP server (stdio, or Streamable HTTP on 127.0.0.1 with --http)")
    .option("--http", "Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio")
    .option("--port <n>", "port of --http (0: any free port)", "0")
    .option("--results <dir>", "the results folder (default results/, or ONSETLAB_RESULTS_DIR)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--dataset <paths...>", "dataset files run_query's simulator and scorer read (default: datasets/*.jsonl)")
    .action(async (flags: McpFlags, command: Command) => {
      if (!flags.http && command.getOptionValueSource("port") === "cli") {
        throw new FlagError("BAD_FLAG", "--port is the port of --http: add --http (over stdio there is no port)");
      }
      const service = new HarnessService({
        ...(flags.results ? { resultsRoot: flags.results } : {}),
        ...(flags.models ? { modelsFile: flags.models } : {}),
      });
      const runner = benchQueryRunner({
        ...(flags.models ? { modelsFile: flags.models } : {}),
        ...(flags.dataset ? { dataset: flags.dataset } : {}),
      });
      const services: McpServices = {
        service,
        // run_query keeps conversations where POST /run does: the results folder's conversations/
        runner: conversationRunner(runner, new ConversationStore(service.resultsRoot)),
        redactor: harnessRedactor(flags.models),
      };
      const stop = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
      if (!flags.http) {
        const server = createMcpServer(services);
        await server.connect(new StdioServerTransport());
        // the client closing stdin is the end of the session
        process.stdin.once("end", () => stop.abort());
        await once(stop.signal, "abort");
        await server.close();
        return;
      }
      const app = new Hono();
      // stateless: a server and transport per request, over the one shared service
      app.all("/mcp", async (c) => {
        const server = createMcpServer(services);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        return transport.handleRequest(c.req.raw);
      });
      const running = await listen(app, { port: parsePort("--port", flags.port) });
      process.stderr.write(`MCP server on ${running.url}/mcp (Streamable HTTP; Ctrl-C to stop)\n`);
      await once(stop.signal, "abort");
      await running.close();
    });
}
