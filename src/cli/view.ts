/**
 * `view [--port N] [--host H --token T] [--results DIR] [--models FILE] [--dataset PATHS…] [--dataset-dir DIR…]
 * [--allow-host NAME…] [--max-body BYTES]`: the web viewer and the HTTP API (docs/openapi.yaml) over a results
 * folder, until Ctrl-C. Loopback only unless given a host and a token; the token may come from
 * $ONSETLAB_TOKEN instead of argv (where `ps` shows it).
 */

import { once } from "node:events";
import type { Command } from "commander";
import { harnessRedactor } from "../bench/run/secrets.ts";
import { resultsRoot } from "../bench/run/store.ts";
import { createApp } from "../serve/app.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../serve/guard.ts";
import { benchQueryRunner } from "../serve/query-runner.ts";
import { DEFAULT_HOST, listen } from "../serve/server.ts";
import { HarnessService } from "../serve/service.ts";
import { parsePort, parsePositiveInt } from "./flags.ts";

interface ViewFlags {
  port: string;
  host: string;
  token?: string;
  results?: string;
  models?: string;
  datasetDir?: string[];
  allowHost?: string[];
  maxBody: string;
  dataset?: string[];
}

export function registerViewCommand(program: Command): void {
  program
    .command("view")
    .description("serve the web viewer and the HTTP API over the results folder (127.0.0.1 unless --host and --token)")
    .option("--port <n>", "port to listen on (0: any free port)", "0")
    .option("--host <address>", "address to listen on; anything but loopback needs --token", DEFAULT_HOST)
    .option(
      "--token <token>",
      "every request must carry it (Authorization: Bearer, or the viewer's cookie); or set $ONSETLAB_TOKEN",
    )
    .option("--results <dir>", "the results folder (default results/, or ONSETLAB_RESULTS_DIR)")
    .option("--models <file>", "a models.yaml other than the repository's")
    .option("--dataset-dir <dirs...>", "folders besides the project whose dataset files POST /bench may name")
    .option("--allow-host <names...>", "names the Host header may carry besides the listening address")
    .option("--max-body <bytes>", "largest request body accepted", String(DEFAULT_MAX_BODY_BYTES))
    .option("--dataset <paths...>", "dataset files POST /run's simulator and scorer read (default: datasets/*.jsonl)")
    .action(async (flags: ViewFlags) => {
      const token = flags.token ?? (process.env.ONSETLAB_TOKEN || undefined);
      const redactor = harnessRedactor(flags.models);
      const service = new HarnessService({
        resultsRoot: flags.results ?? resultsRoot(),
        ...(flags.models ? { modelsFile: flags.models } : {}),
        ...(flags.datasetDir ? { datasetDirs: flags.datasetDir } : {}),
      });
      const app = createApp({
        service,
        runner: benchQueryRunner({
          ...(flags.models ? { modelsFile: flags.models } : {}),
          ...(flags.dataset ? { dataset: flags.dataset } : {}),
        }),
        ...(token ? { token } : {}),
        outgoing: (value) => redactor.value(value),
      });
      const server = await listen(app, {
        host: flags.host,
        port: parsePort("--port", flags.port),
        maxBodyBytes: parsePositiveInt("--max-body", flags.maxBody),
        ...(flags.allowHost ? { allowHosts: flags.allowHost } : {}),
        ...(token ? { token } : {}),
      });
      process.stdout.write(`viewer and API on ${server.url}/ (Ctrl-C to stop)\n`);
      const stopped = new AbortController();
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopped.abort());
      await once(stopped.signal, "abort");
      await server.close();
    });
}
