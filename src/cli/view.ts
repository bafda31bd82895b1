/**
 * `view [--port N] [--host H --token T] [--results DIR] [--models FILE] [--dataset PATHS…]`: the web viewer and the HTTP API
 * (docs/openapi.yaml) over a results folder, until Ctrl-C. Loopback only unless given a host and a token.
 */
import { once } from "node:events";
import type { Command } from "commander";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { createApp } from "../serve/app.ts";
import { benchQueryRunner } from "../serve/query-runner.ts";
import { DEFAULT_HOST, listen } from "../serve/server.ts";
import { HarnessService } from "../serve/service.ts";
import { parsePort } from "./flags.ts";

interface ViewFlags {
  port: string;
  host: string;
  token?: string;
  results?: string;
  models?: string;
  dataset?: string[];
}

export function registerViewCommand(program: Command): void {
  program
    .command("view")
    .description("serve the web viewer and the HTTP API over the results folder (127.0.0.1 unless --host and --token)")
    .option("--port <n>", "port to listen on (0: any free port)", "0")
    .option("--host <address>", "address to listen on; anything but loopback needs --token", DEFAULT_HOST)
    .option("--token <token>", "every request must carry it: Authorization: Bearer TOKEN, or ?token=TOKEN")
    .option("--results <dir>", "the results folder (default results/, or ONSETLAB_RESULTS_DIR)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--dataset <paths...>", "dataset files POST /run's simulator and scorer read (default: datasets/*.jsonl)")
    .action(async (flags: ViewFlags) => {
      const redactor = harnessRedactor(flags.models);
      const service = new HarnessService({
        ...(flags.results ? { resultsRoot: flags.results } : {}),
        ...(flags.models ? { modelsFile: flags.models } : {}),
      });
      const app = createApp({
        service,
        runner: benchQueryRunner({
          ...(flags.models ? { modelsFile: flags.models } : {}),
          ...(flags.dataset ? { dataset: flags.dataset } : {}),
        }),
        ...(flags.token ? { token: flags.token } : {}),
        outgoing: (value) => redactor.value(value),
      });
      const server = await listen(app, {
        host: flags.host,
        port: parsePort("--port", flags.port),
        ...(flags.token ? { token: flags.token } : {}),
      });
      process.stdout.write(`viewer and API on ${server.url}/ (Ctrl-C to stop)\n`);
      const stopped = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopped.abort());
      await once(stopped.signal, "abort");
      await server.close();
    });
}
