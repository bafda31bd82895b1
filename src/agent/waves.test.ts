import { describe, expect, it } from "vitest";
import { groupIntoWaves } from "./waves.ts";

const step = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });

describe("groupIntoWaves", () => {
  it.each([
    ["one step", [step("#E1")], [["#E1"]], []],
    ["independent steps share a wave", [step("#E1"), step("#E2"), step("#E3")], [["#E1", "#E2", "#E3"]], []],
    ["a chain", [step("#E1"), step("#E2", "#E1"), step("#E3", "#E2")], [["#E1"], ["#E2"], ["#E3"]], []],
    [
      "a diamond",
      [step("#E1"), step("#E2", "#E1"), step("#E3", "#E1"), step("#E4", "#E2", "#E3")],
      [["#E1"], ["#E2", "#E3"], ["#E4"]],
      [],
    ],
    ["plan order does not matter", [step("#E2", "#E1"), step("#E1")], [["#E1"], ["#E2"]], []],
    ["unknown references do not hold a step back", [step("#E1", "#E9")], [["#E1"]], []],
    ["a cycle never runs", [step("#E1", "#E2"), step("#E2", "#E1"), step("#E3")], [["#E3"]], ["#E1", "#E2"]],
    ["behind a cycle", [step("#E1", "#E1"), step("#E2", "#E1")], [], ["#E1", "#E2"]],
  ])("%s", (_, steps, waves, cyclic) => {
    expect(groupIntoWaves(steps)).toEqual({ waves, cyclic });
  });
});
