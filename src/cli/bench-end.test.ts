import { describe, expect, it } from "vitest";
import { groundedAnswer } from "../models/sim/answer.ts";
import { benchEndLines } from "./bench-end.ts";
import { defaultReportFolder } from "./report.ts";

describe("after the bench's table", () => {
  const end = { runId: "2026-11-26-abc", dir: "/w/results/2026-11-26-abc", records: 40, before: [], standin: false };

  it("says where the run went and what to do next with it", () => {
    expect(benchEndLines(end, "/w")).toEqual([
      "run 2026-11-26-abc: 40 records → results/2026-11-26-abc/",
      "next: pnpm report 2026-11-26-abc (report beside the run) · pnpm run view (browse its items)",
    ]);
  });

  it("a stand-in run says the stand-in answers only its own dataset, and how to give it yours", () => {
    expect(benchEndLines({ ...end, standin: true }, "/w")[1]).toBe(
      "the stand-in answers only the items of the dataset it was started with; for yours: pnpm standin --dataset FILE",
    );
    expect(benchEndLines({ ...end, standin: true }, "/w").every((line) => line.length <= 120)).toBe(true);
  });

  it("the simulator's answer to a query outside its dataset says why, and names pnpm standin --dataset FILE", () => {
    expect(groundedAnswer(undefined, "")).toMatch(/not an item of the dataset .*pnpm standin --dataset FILE/);
  });

  it("a user's report goes beside its run, not into the tracked reports/", () => {
    expect(defaultReportFolder([{ dir: "/w/results/r1" }])).toBe("/w/results/r1/report");
    expect(defaultReportFolder([{ dir: "/w/results/r1" }, { dir: "/w/results/r2" }])).toBe("/w/results/r1/report+1");
  });
});
