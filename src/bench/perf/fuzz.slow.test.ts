/**
 * The slow tier's fuzz suite: 10,000 hostile outputs through every parser of model output, 100 of them
 * (some past the output cut) through the agent under each strategy. Nothing may escape, hang or pile up
 * on the heap. Time limits here only detect hangs; the speed figures come from `pnpm bench:perf fuzz`.
 */

import { describe, expect, it } from "vitest";
import { FUZZ_PARSERS, FUZZ_STRATEGIES, type FuzzReport, measureFuzz } from "./fuzz.ts";

const INPUTS = 10_000;
const AGENT_INPUTS = 100;
/** One parse taking this long is a hang, whatever else the machine is doing. */
const PARSE_CEILING_MS = 1000;
/** An agent run makes several model and tool calls, each parsed: a larger ceiling, still a hang detector. */
const RUN_CEILING_MS = 5000;

describe("fuzz: hostile model outputs", () => {
  let report: FuzzReport;

  it("reads 10,000 outputs with every parser: no exception escapes, none hangs", async () => {
    report = await measureFuzz({ inputs: INPUTS, agentInputs: AGENT_INPUTS, seed: 17 });
    expect(report.parsers.escaped).toEqual([]);
    expect(report.parsers.escapes).toBe(0);
    expect(report.parsers.runs).toBe(INPUTS * FUZZ_PARSERS.length);
    expect(report.parsers.slowest.ms).toBeLessThan(PARSE_CEILING_MS);
  });

  it("runs the agent on part of them under every strategy: every run returns a serialisable result", () => {
    expect(report.agent.escaped).toEqual([]);
    expect(report.agent.runs).toBe(AGENT_INPUTS * FUZZ_STRATEGIES.length);
    expect(report.agent.slowest.ms).toBeLessThan(RUN_CEILING_MS);
    // some outputs were longer than the cut: each was cut and the cut recorded
    expect(report.agent.cut).toBeGreaterThan(0);
  });

  it("keeps the heap bounded", () => {
    // after a full collection the corpus leaves next to nothing behind; without one, garbage counts too
    expect(report.heapGrowthMb).toBeLessThan(report.gcForced ? 64 : 512);
  });
});
