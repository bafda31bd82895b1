/**
 * `cache stats [--json]` and `cache clear [--model M]`: what the request cache holds (per model entry)
 * and removing it, all or one model's. The folder is `$ONSETLAB_CACHE_DIR`, else
 * `~/.cache/onsetlab/requests` (src/models/request-cache.ts).
 */
import type { Command } from "commander";
import { defaultCacheDir, type RequestCache, requestCacheAt } from "../models/request-cache.ts";
import { compactTable } from "./table.ts";

export function registerCacheCommands(program: Command): void {
  const cache = program.command("cache").description("the request cache: what it holds, and clearing it");
  cache
    .command("stats")
    .description("entries per model in the request cache")
    .option("--json", "print {dir, entries, models, damaged, quarantined} as JSON")
    .action((flags: { json?: boolean }) =>
      withStore((store) => {
        const stats = store.stats();
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(stats)}\n`);
          return;
        }
        const table = compactTable({ head: ["model", "entries"] });
        for (const [model, count] of Object.entries(stats.models).sort()) table.push([model, String(count)]);
        const damaged = stats.damaged > 0 ? `, ${stats.damaged} damaged (read as misses)` : "";
        process.stdout.write(`${stats.dir}: ${stats.entries} cached answers${damaged}\n`);
        if (stats.entries > 0) process.stdout.write(`${table.toString()}\n`);
        for (const name of stats.quarantined) process.stdout.write(`damaged store moved aside: ${name}\n`);
      }),
    );
  cache
    .command("clear")
    .description("remove cached answers: all, or one model entry's")
    .option("--model <name>", "only this model entry's answers (as named in models.yaml or --model)")
    .action((flags: { model?: string }) =>
      withStore(async (store) => {
        const removed = await store.clear(flags.model);
        const whose = flags.model ? ` of ${flags.model}` : "";
        process.stdout.write(`removed ${removed} cached answers${whose} from ${store.dir}\n`);
      }),
    );
}

async function withStore(use: (store: RequestCache) => void | Promise<void>): Promise<void> {
  const store = requestCacheAt(defaultCacheDir());
  try {
    await use(store);
  } finally {
    await store.close();
  }
}
