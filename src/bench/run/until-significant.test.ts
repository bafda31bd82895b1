import { describe, expect, it } from "vitest";
import { type ObservedTask, SequentialMonitor, type SequentialRequest, sequentialText } from "./until-significant.ts";

const request: SequentialRequest = { a: "A", b: "B", alpha: 0.05, looks: 5 };

/** Feeds items in order: `pairs[i]` is [A passed, B passed]; returns the item count at which it stopped. */
function feed(monitor: SequentialMonitor, pairs: readonly [boolean, boolean][], invalid = new Set<number>()): number {
  for (const [index, [a, b]] of pairs.entries()) {
    const task = (config: string, taskSuccess: boolean): ObservedTask => ({
      config,
      itemId: `item-${index}`,
      taskSuccess,
      invalid: invalid.has(index),
    });
    monitor.observe(task("other", true));
    monitor.observe(task("A", a));
    if (monitor.observe(task("B", b))) return index + 1;
  }
  return pairs.length;
}

describe("SequentialMonitor", () => {
  it("stops at the first look whose statistic crosses its boundary", () => {
    const monitor = new SequentialMonitor(request, 100);
    // B passes every item, A fails every other one: 10 discordant pairs by the first look (20 items)
    const pairs = Array.from({ length: 100 }, (_, index): [boolean, boolean] => [index % 2 === 0, true]);
    const stoppedAt = feed(monitor, pairs);
    const { outcome } = monitor;
    expect(outcome.decision).toBe("differ");
    expect(outcome.stoppedEarly).toBe(true);
    const last = outcome.looks.at(-1)!;
    expect(stoppedAt).toBe(last.items);
    expect(Math.abs(last.z)).toBeGreaterThanOrEqual(last.boundary);
    // every look before the last one stayed inside its boundary
    for (const look of outcome.looks.slice(0, -1)) expect(Math.abs(look.z)).toBeLessThan(look.boundary);
    expect(sequentialText(outcome)).toMatch(/^stopped early: the configurations differ \(look \d of 5/);
  });

  it("runs to the end when the two never disagree, and says so", () => {
    const monitor = new SequentialMonitor(request, 60);
    const pairs = Array.from({ length: 60 }, (_, index): [boolean, boolean] => [index % 3 === 0, index % 3 === 0]);
    expect(feed(monitor, pairs)).toBe(60);
    expect(monitor.outcome.looks).toHaveLength(5);
    expect(monitor.outcome.decision).toBe("no_difference_found");
    expect(monitor.outcome.stoppedEarly).toBeUndefined();
  });

  it("with a margin, stops once the difference is known to lie inside it", () => {
    const monitor = new SequentialMonitor({ ...request, margin: 0.2 }, 400);
    const pairs = Array.from({ length: 400 }, (_, index): [boolean, boolean] => [index % 2 === 0, index % 2 === 0]);
    const stoppedAt = feed(monitor, pairs);
    expect(monitor.outcome.decision).toBe("within_margin");
    expect(stoppedAt).toBeLessThan(400);
    const last = monitor.outcome.looks.at(-1)!;
    expect(last.difference.lo).toBeGreaterThan(-0.2);
    expect(last.difference.hi).toBeLessThan(0.2);
  });

  it("counts an invalid item towards the looks but never as a pair", () => {
    const monitor = new SequentialMonitor({ ...request, looks: 1 }, 4);
    feed(
      monitor,
      [
        [true, false],
        [true, false],
        [false, true],
        [true, true],
      ],
      new Set([0, 1]),
    );
    const look = monitor.outcome.looks[0]!;
    expect(look.items).toBe(4);
    expect(look.counts).toEqual({ both: 1, onlyA: 0, onlyB: 1, neither: 0 });
  });
});
