/**
 * Reads a run's run.json and checks it has the fields every command relies on (resume, merge, list,
 * report, gate): a hand edit or a file from elsewhere is bad input naming the file and the field, never
 * a TypeError deep inside a command.
 */
import { join } from "node:path";
import { z } from "zod";
import type { RunManifest } from "./bench.ts";
import { ResultsError, RUN_FILES, readJson } from "./store.ts";

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
      z.object({ name: z.string(), provider: z.string(), id: z.string(), simulated: z.boolean() }).loose(),
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
  const file = join(dir, RUN_FILES.run);
  const raw = readJson<unknown>(file, "run.json");
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ResultsError(
      "RESULTS_INVALID",
      `${file}: not a run.json of this harness: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
      { context: { file, path: issue.path } },
    );
  }
  // the file as written, not zod's copy (which puts the checked fields first: a resume rewrites run.json)
  return raw as RunManifest;
}
