/**
 * `mcp [--http [--port N]] [--results DIR] [--models FILE]`: the harness as an MCP server — over stdio
 * (the default: an MCP client starts this command), or over Streamable HTTP at http://127.0.0.1:PORT/mcp.
 * stdout carries protocol frames only; notes go to stderr.
 */

import { once } from "node:events";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { flushOpenAppenders, resultsRoot } from "../bench/run/store.ts";
import { InputError } from "../errors.ts";
import { ownStopSignals } from "../mcp/pool.ts";
import { conversationRunner } from "../serve/conversation-runs.ts";
import { ConversationStore } from "../serve/conversation-store.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../serve/guard.ts";
import {
  createMcpSession,
  DEFAULT_IDLE_TIMEOUT_S,
  type McpServices,
  mcpHttpApp,
  SHUTDOWN,
} from "../serve/mcp-server.ts";
import { benchQueryRunner } from "../serve/query-runner.ts";
import { listen } from "../serve/server.ts";
import { HarnessService } from "../serve/service.ts";
import { FlagError, parsePort, parsePositiveInt } from "./flags.ts";

interface McpFlags {
  http?: boolean;
  port: string;
  results?: string;
  models?: string;
  dataset?: string[];
  allowHost?: string[];
  maxBody: string;
  idleTimeout: string;
}

/** The longest delay setTimeout keeps: past it, Node fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Settles when the signal aborts, at once if it already has (a signal during start-up is not lost). */
function stopped(signal: AbortSignal): Promise<unknown> {
  return signal.aborted ? Promise.resolve() : once(signal, "abort");
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
    .option(
      "--idle-timeout <seconds>",
      "with --http: a session with no open connection for this long ends, and the benches it started stop",
      String(DEFAULT_IDLE_TIMEOUT_S),
    )
    .action(async (flags: McpFlags, command: Command) => {
      if (!flags.http && command.getOptionValueSource("port") === "cli") {
        throw new FlagError("BAD_FLAG", "--port is the port of --http: add --http (over stdio there is no port)");
      }
      if (!flags.http && command.getOptionValueSource("idleTimeout") === "cli") {
        throw new FlagError(
          "BAD_FLAG",
          "--idle-timeout is for --http sessions: add --http (over stdio the session ends with stdin)",
        );
      }
      const idleTimeoutMs = parsePositiveInt("--idle-timeout", flags.idleTimeout) * 1000;
      // setTimeout fires at once past 2^31 - 1 ms (about 24.8 days)
      if (idleTimeoutMs > MAX_TIMER_MS) {
        throw new FlagError(
          "BAD_FLAG",
          `--idle-timeout must be at most ${Math.floor(MAX_TIMER_MS / 1000)} seconds, not "${flags.idleTimeout}"`,
        );
      }
      const maxBodyBytes = parsePositiveInt("--max-body", flags.maxBody);
      const port = parsePort("--port", flags.port);
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
        notify: (line) => process.stderr.write(`${line}\n`),
      };
      const stop = new AbortController();
      // this command stops gracefully (its sessions end, their benches stop, each with its resume line): the
      // pools' own signal hook, which would exit as soon as they close, leaves the signal to it. A second
      // signal exits at once
      ownStopSignals(true);
      for (const [signal, code] of [
        ["SIGINT", 130],
        ["SIGTERM", 143],
      ] as const) {
        process.on(signal, () => {
          if (!stop.signal.aborted) return stop.abort(SHUTDOWN);
          // at once, but with the records the appenders still hold (as a second Ctrl-C of a bench)
          flushOpenAppenders();
          process.exit(code);
        });
      }
      if (!flags.http) {
        const session = createMcpSession(services);
        const { server } = session;
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
        await stopped(stop.signal);
        await session.end(stop.signal.reason === SHUTDOWN ? SHUTDOWN : undefined);
        if (oversized) {
          throw new InputError(
            "MESSAGE_TOO_LARGE",
            `a message from the MCP client is larger than --max-body (${maxBodyBytes} bytes); the session is closed (raise --max-body to accept it)`,
          );
        }
        return;
      }
      const http = mcpHttpApp(services, { idleTimeoutMs });
      const running = await listen(http.app, {
        port,
        maxBodyBytes,
        ...(flags.allowHost ? { allowHosts: flags.allowHost } : {}),
      });
      process.stderr.write(`MCP server on ${running.url}/mcp (Streamable HTTP; Ctrl-C to stop)\n`);
      await stopped(stop.signal);
      await running.close();
      await http.close();
    });
}
