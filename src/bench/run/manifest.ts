/**
 * Reads a run's run.json and checks it has the fields every command relies on (resume, merge, list,
 * report, gate): a hand edit or a file from elsewhere is bad input naming the file and the field, never
 * a TypeError deep inside a command.
 */
import { join } from "node:path";
import { z } from "zod";
import type { RunManifest } from "./run-files.ts";
import { RUN_FILES, readJsonChecked } from "./store.ts";

const strings = z.array(z.string());

const manifestSchema = z
  .object({
    runId: z.string().min(1),
    request: z
      .object({
        models: strings,
        configs: strings,
        dataset: strings,
        filter: z.record(z.string(), strings),
        seed: z.number().int(),
        repeats: z.number().int().min(1),
        transport: z.enum(["stdio", "memory"]),
      })
      .loose(),
    models: z.array(
      // `provenance` (read with storedProvenance); runs made before it carry `simulated` instead
      z.object({ name: z.string(), provider: z.string(), id: z.string() }).loose(),
    ),
    configs: strings,
    resolved: z.record(z.string(), z.record(z.string(), z.unknown())),
    dataset: z.object({ files: strings, hash: z.string(), items: z.number().int().min(0), itemIds: strings }).loose(),
    tasks: z.number().int().min(0),
    simulated: z.boolean(),
    startedAt: z.string(),
    sessions: z.array(z.object({ startedAt: z.string(), tasksRun: z.number() }).loose()),
  })
  .loose();

/** The run.json of the run folder `dir`, checked. */
export function readManifest(dir: string): RunManifest {
  return readJsonChecked<RunManifest>(join(dir, RUN_FILES.run), "run.json", manifestSchema);
}
