import { describe, expect, it } from "vitest";
import { emitPaced, PROMPT_SPEEDUP, planTimings, ratesOf, splitPieces, toNs } from "./pacing.ts";

describe("splitPieces", () => {
  it.each(['#E1 = list_issues(owner="acme", repo="webapp")', "  leading and trailing  ", "line one\nline two\n", ""])(
    "pieces of %j join back to the text",
    (text) => {
      expect(splitPieces(text).join("")).toBe(text);
    },
  );

  it("gives one piece per word", () => {
    expect(splitPieces("a bb  ccc")).toEqual(["a", " bb", "  ccc"]);
  });
});

describe("planTimings", () => {
  it("derives prompt-eval and generation time from the pace", () => {
    const plan = planTimings(
      { evaluatedTokens: 200, completionTokens: 50 },
      { loadMs: 0, promptEvalMs: 1, evalMs: 2 },
      ratesOf({ pace: 100 }),
    );
    expect(plan.evalMs).toBe(500);
    expect(plan.promptEvalMs).toBe((200 / (100 * PROMPT_SPEEDUP)) * 1000);
    expect(plan.totalMs).toBe(plan.promptEvalMs + plan.evalMs);
    expect(toNs(plan.evalMs)).toBe(500_000_000);
  });

  it("reports the measured time when there is no pace", () => {
    const measured = { loadMs: 0, promptEvalMs: 0.5, evalMs: 3.5 };
    expect(planTimings({ evaluatedTokens: 200, completionTokens: 50 }, measured, undefined)).toEqual({
      ...measured,
      totalMs: 4,
    });
  });

  it("puts a cold start's load before the paced work", () => {
    const plan = planTimings(
      { evaluatedTokens: 0, completionTokens: 10 },
      { loadMs: 250, promptEvalMs: 0, evalMs: 1 },
      ratesOf({ pace: 100 }),
    );
    expect(plan).toEqual({ loadMs: 250, promptEvalMs: 0, evalMs: 100, totalMs: 350 });
  });

  it("times prompt and generation at their own rates, scaled", () => {
    const rates = ratesOf({ promptRate: 400, genRate: 40, timeScale: 0.1 });
    const plan = planTimings(
      { evaluatedTokens: 400, completionTokens: 40 },
      { loadMs: 0, promptEvalMs: 0, evalMs: 0 },
      rates,
    );
    expect(plan.promptEvalMs).toBeCloseTo(100);
    expect(plan.evalMs).toBeCloseTo(100);
    expect(plan.totalMs).toBeCloseTo(200);
  });

  it("takes a rate not given from the other, as --pace relates them", () => {
    expect(ratesOf({ genRate: 40 })).toEqual({ promptRate: 400, genRate: 40, timeScale: 1 });
    expect(ratesOf({ pace: 25, promptRate: 1000 })).toEqual({ promptRate: 1000, genRate: 25, timeScale: 1 });
    expect(ratesOf({ timeScale: 0.5 })).toBeUndefined();
  });
});

describe("emitPaced", () => {
  it("spreads the pieces over the generation time, after the prompt evaluation", async () => {
    const started = performance.now();
    const times: number[] = [];
    const plan = { loadMs: 0, promptEvalMs: 20, evalMs: 60, totalMs: 80 };
    await emitPaced(["a", " b", " c"], plan, started, new AbortController().signal, () =>
      times.push(performance.now() - started),
    );
    expect(times).toHaveLength(3);
    // never before its time (a timer firing a fraction early is waited out)
    expect(times[0]).toBeGreaterThanOrEqual(40);
    expect(times[1]).toBeGreaterThanOrEqual(60);
    expect(times[2]).toBeGreaterThanOrEqual(80);
  });

  it("stops when the client goes away", async () => {
    const gone = new AbortController();
    const emitted: string[] = [];
    const plan = { loadMs: 0, promptEvalMs: 0, evalMs: 10_000, totalMs: 10_000 };
    const pending = emitPaced(["a", " b"], plan, performance.now(), gone.signal, (piece) => emitted.push(piece));
    gone.abort();
    await expect(pending).rejects.toThrow();
    expect(emitted).toEqual([]);
  });
});
