/** Nesting and size limits of the readers of model output: a too-deep or too-long value is a failure with a reason. */

import { describe, expect, it } from "vitest";
import { parseLooseJson } from "./loose-json.ts";
import { parsePlan } from "./plan-parser.ts";
import { SAMPLE_TOOLS } from "./testing/definitions.ts";

describe("nesting limits of the readers", () => {
  it("loose JSON: strict or repaired, a value deeper than 32 levels is a failure with a reason", () => {
    expect(parseLooseJson(`${"[".repeat(33)}${"]".repeat(33)}`)).toEqual({
      ok: false,
      error: "nested deeper than 32 levels",
    });
    expect(parseLooseJson(`${"[".repeat(33)}1`)).toEqual({ ok: false, error: "nested deeper than 32 levels" });
    expect(parseLooseJson(`${"[".repeat(32)}${"]".repeat(32)}`)).toMatchObject({ ok: true, repaired: false });
  });

  it("loose JSON: a broken text past the repair cap is not repaired", () => {
    const broken = `{'a': '${"x".repeat(9000)}'}`;
    expect(parseLooseJson(broken)).toMatchObject({ ok: false, error: expect.stringContaining("too long to repair") });
    expect(parseLooseJson(`{'a': 'x'}`)).toEqual({ ok: true, value: { a: "x" }, repaired: true });
  });

  it("call syntax: a value nested past the limit becomes null with a problem, the rest of the call is read", () => {
    const [step] = parsePlan(
      `#E1 = list_issues(owner=${"[".repeat(40)}1${"]".repeat(40)}, repo="webapp")`,
      SAMPLE_TOOLS,
    ).steps;
    expect(step?.args.repo).toBe("webapp");
    expect(JSON.stringify(step?.args.owner)).not.toContain("1");
  });
});
