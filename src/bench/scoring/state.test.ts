import { describe, expect, it } from "vitest";
import type { StateCheckSpec } from "../dataset/types.ts";
import { scoreState } from "./state.ts";

const exists: StateCheckSpec = {
  server: "github",
  expect: "issue_exists",
  args: { owner: "acme", repo: "webapp", title: "X" },
};
const notPosted: StateCheckSpec = {
  server: "slack",
  expect: "message_posted",
  args: { channel_id: "C1" },
  negate: true,
};

describe("scoreState", () => {
  it.each([
    ["a passing check", [exists], [{ spec: exists, pass: true, detail: "issue #7" }], true],
    ["a failing check", [exists], [{ spec: exists, pass: false, detail: "no such issue" }], false],
    [
      "a negated check whose condition does not hold",
      [notPosted],
      [{ spec: notPosted, pass: false, detail: "" }],
      true,
    ],
    ["a negated check whose condition holds", [notPosted], [{ spec: notPosted, pass: true, detail: "posted" }], false],
    ["a check the runner did not report", [exists, notPosted], [{ spec: notPosted, pass: false, detail: "" }], false],
  ])("%s", (_name, specs, outcomes, ok) => {
    expect(scoreState(specs, outcomes)?.ok).toBe(ok);
  });

  it("pairs outcomes by spec whatever the key order, and records negation", () => {
    const reordered = { ...exists, args: { title: "X", repo: "webapp", owner: "acme" } };
    const score = scoreState(
      [notPosted, exists],
      [
        { spec: reordered, pass: true, detail: "issue #7" },
        { spec: notPosted, pass: false, detail: "nothing" },
      ],
    );
    expect(score).toEqual({
      ok: true,
      checks: [
        { server: "slack", expect: "message_posted", negate: true, pass: false, ok: true, detail: "nothing" },
        { server: "github", expect: "issue_exists", negate: false, pass: true, ok: true, detail: "issue #7" },
      ],
    });
    expect(scoreState([exists], [])?.checks[0]).toMatchObject({ ok: false, detail: "not run" });
    expect(scoreState(undefined, [])).toBeNull();
  });
});
