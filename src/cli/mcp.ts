/**
 * `mcp [--http [--port N]] [--results DIR] [--models FILE]`: the harness as an MCP server — over stdio
 * (the default: an MCP client starts this command), or over Streamable HTTP at http://127.0.0.1:PORT/mcp.
 * stdout carries protocol frames only; notes go to stderr.
 */

import { once } from "node:events";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { harnessRedactor, resultsRoot } from "../bench/run/index.ts";
import { InputError } from "../errors.ts";
import {
  benchQueryRunner,
  ConversationStore,
  conversationRunner,
  createMcpServer,
  DEFAULT_MAX_BODY_BYTES,
  HarnessService,
  listen,
  type McpServices,
  mcpHttpApp,
} from "../serve/index.ts";
import { FlagError, parsePort, parsePositiveInt } from "./flags.ts";

interface McpFlags {
  http?: boolean;
  port: string;
  results?: string;
  models?: string;
  dataset?: string[];
  allowHost?: string[];
  maxBody: string;
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
    .option("--allow-host <names...>", "with --http: names the Host header may carry besides 127.0.0.1/localhost")
    .option(
      "--max-body <bytes>",
      "largest request body (--http) or message (stdio) accepted",
      String(DEFAULT_MAX_BODY_BYTES),
    )
    .action(async (flags: McpFlags, command: Command) => {
      if (!flags.http && command.getOptionValueSource("port") === "cli") {
        throw new FlagError("BAD_FLAG", "--port is the port of --http: add --http (over stdio there is no port)");
      }
      const service = new HarnessService({
        resultsRoot: flags.results ?? resultsRoot(),
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
      const maxBodyBytes = parsePositiveInt("--max-body", flags.maxBody);
      if (!flags.http) {
        const server = createMcpServer(services);
        await server.connect(new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: maxBodyBytes }));
        // the client closing stdin is the end of the session, and of the benches it started
        process.stdin.once("end", () => stop.abort());
        // a message over the limit makes the SDK's transport close itself and stop reading stdin: without
        // this the process would run out of work and end with exit 13 and nothing said
        let oversized = false;
        server.server.onerror = (error) => {
          if (/exceeded maximum size/.test(error.message)) oversized = true;
        };
        server.server.onclose = () => stop.abort();
        await once(stop.signal, "abort");
        await server.close();
        for (const runId of await services.service.stopBenches("its MCP client went away")) {
          process.stderr.write(
            `bench ${runId} stopped: its MCP client went away; resume it with \`pnpm bench --resume ${runId}\`\n`,
          );
        }
        if (oversized) {
          throw new InputError(
            "MESSAGE_TOO_LARGE",
            `a message from the MCP client is larger than --max-body (${maxBodyBytes} bytes); the session is closed (raise --max-body to accept it)`,
          );
        }
        return;
      }
      const running = await listen(mcpHttpApp(services), {
        port: parsePort("--port", flags.port),
        maxBodyBytes,
        ...(flags.allowHost ? { allowHosts: flags.allowHost } : {}),
      });
      process.stderr.write(`MCP server on ${running.url}/mcp (Streamable HTTP; Ctrl-C to stop)\n`);
      await once(stop.signal, "abort");
      await running.close();
    });
}
