import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  clearCustomMetrics,
  customMetrics,
  defineMetric,
  loadMetricModules,
  registerMetric,
} from "./metric-registry.ts";
import { scoreItem } from "./score-item.ts";
import { type ScoredRecord, summarize } from "./summarize.ts";
import { CREATE_ISSUE, call, item, TOOLS, trace } from "./testing/fixtures.ts";

/** An item with one gold call, run with the right call or with a wrong title. */
function record(id: string, query: string, right: boolean): ScoredRecord {
  const it = item({ id, query, calls: [CREATE_ISSUE], servers: ["github"] });
  const args = right ? CREATE_ISSUE.args : { ...CREATE_ISSUE.args, title: "Other" };
  const run = trace({ toolCalls: [call(1, "issue_write", args)] });
  return {
    model: "m",
    config: "c",
    item: it,
    score: scoreItem({ item: it, trace: run, stateChecks: [], tools: TOOLS }),
  };
}

afterEach(clearCustomMetrics);

const longQuery = defineMetric({
  name: "longQuery",
  label: "long query",
  better: "higher",
  kind: "binary",
  of: (score, item) => (item.query.length > 20 ? score.taskSuccess : null),
});

describe("custom metrics", () => {
  it("a registered metric is counted per row from each item's score and dataset item", () => {
    registerMetric(longQuery);
    const summary = summarize([
      record("a", "a query that is long enough", true),
      record("b", "another query, long enough too", false),
      record("c", "short", true),
    ]);
    expect(summary.rows[0]?.taskSuccess).toMatchObject({ k: 2, n: 3 });
    expect(summary.rows[0]?.custom.longQuery).toMatchObject({ k: 1, n: 2, value: 0.5 });
    expect(summary.customMetrics).toEqual([
      { name: "longQuery", label: "long query", better: "higher", kind: "binary" },
    ]);
  });

  it("refuses a name taken by a built-in or an earlier metric, or not an identifier", () => {
    registerMetric(longQuery);
    expect(() => registerMetric({ ...longQuery })).toThrow(/metric "longQuery" is already defined/);
    expect(() => registerMetric({ ...longQuery, name: "taskSuccess" })).toThrow(/already defined/);
    expect(() => registerMetric({ ...longQuery, name: "long-query" })).toThrow(/expected an identifier/);
  });

  it("loads a module's default export (one metric or a list) once per file, and names a bad module", async () => {
    const dir = mkdtempSync(join(tmpdir(), "metric-module-"));
    const good = join(dir, "two.mjs");
    writeFileSync(
      good,
      "const of = (s) => s.taskSuccess;\nexport default [\n" +
        "  { name: 'm1', label: 'one', better: 'higher', kind: 'binary', of },\n" +
        "  { name: 'm2', label: 'two', better: 'lower', kind: 'binary', of },\n];\n",
    );
    await loadMetricModules([good]);
    await loadMetricModules([good]);
    expect(customMetrics().map((metric) => metric.name)).toEqual(["m1", "m2"]);
    const bad = join(dir, "bad.mjs");
    writeFileSync(bad, "export default { name: 'x' };\n");
    await expect(loadMetricModules([bad])).rejects.toThrow(/bad\.mjs: the default export must be a metric/);
  });
});
