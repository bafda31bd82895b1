/**
 * Per-item metrics added from outside this repository: `registerMetric` (library users) or a module
 * named under `metrics:` in models.yaml whose default export is a metric or a list of them. A custom
 * metric reads an item's score and its dataset item; the summary counts it into each row's `custom`
 * rates, and from there it reaches `--json`, the terminal table and the reports. The gate and the
 * paired comparisons judge the built-in metrics only (ITEM_METRICS).
 */
import { InputError } from "../../errors.ts";
import { importUserModule } from "../../load-module.ts";
import type { DatasetItem } from "../dataset/types.ts";
import { type BinaryOutcome, type Direction, ITEM_METRICS, type PooledOutcome } from "./metrics.ts";
import type { ItemScore } from "./score-types.ts";

interface CustomMetricCommon {
  /** The key of the rate in summary rows (`custom.<name>`) and in `--json` rows; a JS identifier. */
  name: string;
  /** The column header in tables. */
  label: string;
  better: Direction;
}

export type CustomItemMetric =
  | (CustomMetricCommon & { kind: "binary"; of: (score: ItemScore, item: DatasetItem) => BinaryOutcome })
  | (CustomMetricCommon & { kind: "pooled"; of: (score: ItemScore, item: DatasetItem) => PooledOutcome });

const registered: CustomItemMetric[] = [];
/** Metric modules registered so far: a second bench in the same process does not register them again. */
const loadedFiles = new Set<string>();

/** Types a metric module's export (`export default defineMetric({...})`). */
export function defineMetric(metric: CustomItemMetric): CustomItemMetric {
  return metric;
}

export function registerMetric(metric: CustomItemMetric): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(metric.name)) {
    throw new InputError(
      "BAD_METRIC_NAME",
      `metric name "${metric.name}": expected an identifier (letters, digits, _)`,
    );
  }
  if (
    registered.some((other) => other.name === metric.name) ||
    ITEM_METRICS.some((builtIn) => builtIn.name === metric.name)
  ) {
    throw new InputError("DUPLICATE_METRIC", `metric "${metric.name}" is already defined; pick another name`);
  }
  registered.push(metric);
}

/** Registered metrics, in registration order (the order of their columns). */
export function customMetrics(): readonly CustomItemMetric[] {
  return registered;
}

/** Removes registered metrics (tests and library users that run several benches in one process). */
export function clearCustomMetrics(): void {
  registered.length = 0;
  loadedFiles.clear();
}

/** Imports each metric module (models.yaml `metrics:`) and registers its default export (a metric or a list). */
export async function loadMetricModules(files: readonly string[]): Promise<void> {
  for (const file of files) {
    if (loadedFiles.has(file)) continue;
    const loaded = (await importUserModule(file, "models.yaml metrics")).default;
    const metrics = Array.isArray(loaded) ? loaded : [loaded];
    for (const metric of metrics) {
      if (typeof metric?.of !== "function" || typeof metric.name !== "string") {
        throw new InputError(
          "BAD_METRIC_MODULE",
          `${file}: the default export must be a metric ({ name, label, better, kind, of }) or a list of them`,
        );
      }
      registerMetric(metric as CustomItemMetric);
    }
    loadedFiles.add(file);
  }
}
