/**
 * Speed of BFCL scoring on ../shared/bfcl: the whole pipeline (load + score, every model) and the
 * scoring itself (decode + check, data already loaded), in entries per second.
 * Run: npx tsx src/bfcl/bench-scoring.ts
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Bench } from "tinybench";
import { DEFAULT_BFCL_DATA_DIR } from "../cli/bfcl.ts";
import { loadCategoryInputs, scoreCategory, scoreResultDir } from "./score-dir.ts";

const resultRoot = join(DEFAULT_BFCL_DATA_DIR, "..", "result");
if (!existsSync(resultRoot)) {
  console.error(`no BFCL sample at ${resultRoot}`);
  process.exit(1);
}
const modelDirs = readdirSync(resultRoot).map((m) => join(resultRoot, m));
const options = { dataDir: DEFAULT_BFCL_DATA_DIR };
const inputs = modelDirs.flatMap((dir) => loadCategoryInputs(dir, options));
const entries = inputs.reduce((n, input) => n + input.results.length, 0);

const bench = new Bench({ time: 2000 });
bench
  .add(`load + score all (${modelDirs.length} models)`, () => {
    for (const dir of modelDirs) scoreResultDir(dir, options);
  })
  .add(`score only (${entries} entries)`, () => {
    for (const input of inputs) scoreCategory(input);
  });
await bench.run();

for (const task of bench.tasks) {
  const result = task.result;
  if (result.state !== "completed") {
    console.log(`${task.name}: ${result.state}`);
    continue;
  }
  const meanMs = result.latency.mean;
  const perSecond = task.name.startsWith("score only") ? ` — ${Math.round((entries / meanMs) * 1000)} entries/s` : "";
  console.log(`${task.name}: mean ${meanMs.toFixed(1)} ms, p99 ${result.latency.p99?.toFixed(1)} ms${perSecond}`);
}
