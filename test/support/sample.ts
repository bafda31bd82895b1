/**
 * A stratified sample of the dataset for run-level tests: the first items of every category × first
 * server, written as a dataset file of its own, so a test covers every kind of item in seconds.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";

export function stratifiedSample(perGroup: number): DatasetItem[] {
  const taken = new Map<string, number>();
  return loadDataset()
    .map((loaded) => loaded.item)
    .filter((item) => {
      const group = `${item.category}|${item.servers[0]}`;
      const count = taken.get(group) ?? 0;
      taken.set(group, count + 1);
      return count < perGroup;
    });
}

/** The sample as a dataset file in `dir`; returns its path. */
export function writeSample(dir: string, perGroup: number): { file: string; items: DatasetItem[] } {
  const items = stratifiedSample(perGroup);
  const file = join(dir, `sample-${perGroup}.jsonl`);
  writeFileSync(file, items.map((item) => JSON.stringify(item)).join("\n") + "\n");
  return { file, items };
}
