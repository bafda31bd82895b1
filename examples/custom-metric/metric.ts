/**
 * A per-item metric from outside src/: "no extra calls" — of the items with gold calls, the share whose
 * run made no more tool calls than the gold has. Listed under `metrics:` in ./models.yaml, it shows up
 * in `pnpm bench --json`, the terminal table and the report's leaderboard with no other change.
 *
 *   pnpm bench --models examples/custom-metric/models.yaml --limit 20
 *
 * In your own project import from "onsetlab-bench" instead of "../../src/index.ts".
 */
import { defineMetric } from "../../src/index.ts";

export default defineMetric({
  name: "noExtraCalls",
  label: "no extra calls",
  better: "higher",
  kind: "binary",
  of: (score, item) => (item.calls.length === 0 ? null : score.cost.toolCalls <= item.calls.length),
});
