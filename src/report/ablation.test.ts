import { describe, expect, it } from "vitest";
import { type AgentConfigInput, ONSETLAB_AXES, PLUS_AXES, resolveAgentConfig as resolveAgent } from "../agent/types.ts";
import type { ResolvedConfig } from "../bench/run/run-file-types.ts";
import { againstReference, axisOf, differingKeys, settingText } from "./ablation.ts";
import { syntheticRun } from "./testing/synthetic-run.ts";

/** A configuration as run.json records it: the agent's, with the default exposure. */
const resolveAgentConfig = (input: AgentConfigInput = {}): ResolvedConfig => ({
  ...resolveAgent(input),
  exposure: "session",
});

describe("ablation axes", () => {
  const reference = resolveAgentConfig({});

  it("places a configuration on the axis it alone changes", () => {
    expect(axisOf(resolveAgentConfig({ filter: 3 }), reference)?.id).toBe("filter");
    expect(axisOf(resolveAgentConfig({ rescue: false, fallback: false }), reference)?.id).toBe("rescue-fallback");
    expect(axisOf(resolveAgentConfig({ strategy: "react", filter: 3 }), reference)).toBeUndefined();
    expect(axisOf(reference, reference)).toBeUndefined();
    expect(differingKeys(resolveAgentConfig({ limits: { plannerMaxTokens: 99 } }), reference)).toEqual(["limits"]);
  });

  it("gives each OnsetLab axis, changed alone over onsetlab, a table of its own", () => {
    const onsetlab = resolveAgentConfig(ONSETLAB_AXES);
    const axisFor = (change: AgentConfigInput) => axisOf(resolveAgentConfig({ ...ONSETLAB_AXES, ...change }), onsetlab);
    const ids = Object.entries(PLUS_AXES).map(([key, value]) => axisFor({ [key]: value })?.id);
    expect(ids).toEqual([
      "router",
      "relevance",
      "ranking",
      "tool-terms",
      "rank-clauses",
      "workflows",
      "tool-selection",
      "parser",
      "plan-steps",
      "plan-examples",
      "plan-steps",
      "validation",
      "rescue-fallback",
      "fallback-trigger",
      "fallback-iterations",
      "react-protocol",
      "react-ending",
      "write-guard",
      "builtins",
      "solver-data",
      "skills-in-react",
      "history",
      "history-filter",
      "history-compact",
    ]);
    expect(axisFor({ planSteps: "many", fieldRefs: true })?.id).toBe("plan-steps");
    // two OnsetLab axes at once (other than a plan with its references): no table
    expect(axisFor({ router: "plus", builtins: "ranked" })).toBeUndefined();
    const guard = axisFor({ writeGuard: "per_call" })!;
    expect(settingText(guard, resolveAgentConfig({ ...ONSETLAB_AXES, writeGuard: "per_call" }))).toBe(
      "writeGuard=per_call",
    );
  });

  it("writes the axis's switches as the configuration sets them", () => {
    const axis = axisOf(resolveAgentConfig({ rescue: false }), reference)!;
    expect(settingText(axis, resolveAgentConfig({ rescue: false }))).toBe("rescue=off · fallback=on");
  });

  it("reads a stored comparison either way round as configuration − reference", () => {
    const { run } = syntheticRun({
      id: "r",
      items: 10,
      configs: [
        { name: "native", succeed: [0, 1], agent: { strategy: "native" } },
        { name: "onsetlab", succeed: [0, 1, 2, 3, 4] },
      ],
    });
    // stored as native (a) vs onsetlab (b)
    expect(run.summary.comparisons[0]).toMatchObject({ a: "native", b: "onsetlab" });
    const paired = againstReference(run.summary.comparisons, "sim:slm-3b", "onsetlab", "native")!;
    expect(paired.taskSuccess.difference.value).toBeCloseTo(-0.3, 10);
    expect(paired.taskSuccess.a.k).toBe(5);
    expect(paired.taskSuccess.b.k).toBe(2);
    expect(paired.taskSuccess.difference.lo).toBeLessThan(paired.taskSuccess.difference.hi);
    expect(againstReference(run.summary.comparisons, "sim:slm-3b", "onsetlab", "missing")).toBeUndefined();
  });
});
