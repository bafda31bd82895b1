import { describe, expect, it } from "vitest";
import { resolveAgentConfig } from "../agent/index.ts";
import { againstReference, axisOf, differingKeys, settingText } from "./ablation.ts";
import { syntheticRun } from "./testing/synthetic-run.ts";

describe("ablation axes", () => {
  const reference = resolveAgentConfig({});

  it("places a configuration on the axis it alone changes", () => {
    expect(axisOf(resolveAgentConfig({ filter: 3 }), reference)?.id).toBe("filter");
    expect(axisOf(resolveAgentConfig({ rescue: false, fallback: false }), reference)?.id).toBe("rescue-fallback");
    expect(axisOf(resolveAgentConfig({ strategy: "react", filter: 3 }), reference)).toBeUndefined();
    expect(axisOf(reference, reference)).toBeUndefined();
    expect(differingKeys(resolveAgentConfig({ limits: { plannerMaxTokens: 99 } }), reference)).toEqual(["limits"]);
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
