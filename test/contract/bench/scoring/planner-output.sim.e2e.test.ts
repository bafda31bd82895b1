/**
 * The planner-output classifier against KNOWN truth: the simulator writes plans for every dataset
 * item with mistakes it draws itself and reports (SimAnalysis.decision). What the classifier finds
 * must be what was injected — the precondition for calibrating the simulator's rates with the
 * scorer. Some injections cannot be seen in the text by design and bound the recall below 1: a
 * "wrong" value the gold alternatives still accept, an argument an unterminated string swallowed,
 * prose added to an output that is itself only prose.
 */

import { describe, expect, it } from "vitest";
import { mockServerSpecs } from "../../../../mock-servers/index.ts";
import { filterTools } from "../../../../src/agent/filter.ts";
import { buildPlannerPrompt } from "../../../../src/agent/planner.ts";
import { loadDataset } from "../../../../src/bench/dataset/load.ts";
import { classifyPlannerOutput, PLANNER_ERROR_TYPES } from "../../../../src/bench/scoring/planner-output.ts";
import { ToolCatalog } from "../../../../src/bench/scoring/tool-catalog.ts";
import { SimEngine } from "../../../../src/models/sim/index.ts";
import type { ToolDefinition } from "../../../../src/tool-protocol/types.ts";

const items = loadDataset()
  .map((loaded) => loaded.item)
  .filter((item) => item.tools === undefined);
const definitions: ToolDefinition[] = Object.values(mockServerSpecs).flatMap((spec) =>
  spec.tools.map((tool) => ({
    server: spec.name,
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  })),
);
const catalog = new ToolCatalog(definitions);

interface Tally {
  injected: number;
  detected: number;
  both: number;
}

/**
 * One planner request per item, as the agent builds it (filtered tools, no skill rules). Only items
 * whose gold tools the filter shows: for the others the simulator rightly writes no plan (it cannot
 * call a tool it was not shown), which the classifier, judging against the gold calls, would call a
 * direct answer.
 */
function tally(profile: string, seed: number): Map<string, Tally> {
  const engine = new SimEngine({ profile, seed, gold: items });
  const counts = new Map(PLANNER_ERROR_TYPES.map((type) => [type as string, { injected: 0, detected: 0, both: 0 }]));
  for (const item of items) {
    const connected = definitions.filter((tool) => item.servers.includes(tool.server));
    const shown = filterTools(item.query, connected, 8).tools;
    if (!item.calls.every((call) => shown.some((tool) => tool.name === call.tool))) continue;
    const prompt = buildPlannerPrompt({ query: item.query, tools: shown });
    const answer = engine.respond({ kind: "complete", stage: "planner", prompt });
    const decision = answer.analysis.decision;
    const injected = new Set<string>([
      ...(decision.request ? [decision.request] : []),
      ...decision.calls.flatMap((c) => (c ? [c] : [])),
    ]);
    const classified = classifyPlannerOutput(answer.text, item, catalog);
    const detected = new Set<string>(classified.errors);
    // A wrong tool given the right tool's arguments lacks its own required ones: that is seen too.
    if (injected.has("wrong_tool") && !injected.has("missing_required_param"))
      detected.delete("missing_required_param");
    // Prose around calls is only visible around calls.
    if (classified.steps.length === 0) injected.delete("prose_around_call");
    for (const type of injected) counts.get(type)!.injected++;
    for (const type of detected) {
      counts.get(type)!.detected++;
      if (injected.has(type)) counts.get(type)!.both++;
    }
  }
  return counts;
}

describe("classifyPlannerOutput on the simulator's plans", () => {
  it("finds nothing wrong in the oracle's plans", () => {
    const counts = tally("oracle", 1);
    expect([...counts].filter(([, c]) => c.detected > 0).map(([type]) => type)).toEqual([]);
    expect(items.length).toBeGreaterThan(100);
  });

  it("finds what sim:chaos injected, type by type", () => {
    const counts = tally("chaos", 3);
    for (const [type, { injected, detected, both }] of counts) {
      if (type === "type_error") {
        expect(detected, type).toBe(0);
        continue;
      }
      expect(injected, `${type} injected`).toBeGreaterThanOrEqual(20);
      expect(both / detected, `${type} precision`).toBeGreaterThanOrEqual(0.95);
      expect(both / injected, `${type} recall`).toBeGreaterThanOrEqual(0.75);
    }
  });
});
