/**
 * The gold replay (`dataset check`), the simulator's oracle and the scorer read one gold value: what
 * the replay sends is what the oracle writes, and the scorer accepts it. The schema is the official
 * memory server's `add_observations` (an array of strings inside an array of objects).
 */
import { describe, expect, it } from "vitest";
import { goldArgs } from "../../gold-value.ts";
import type { SimGoldItem } from "../../models/sim/gold.ts";
import { goldCalls } from "../../models/sim/index.ts";
import { matchJsonArgs } from "./arg-match.ts";

const ADD_OBSERVATIONS = {
  type: "object",
  properties: {
    observations: {
      type: "array",
      items: {
        type: "object",
        properties: { entityName: { type: "string" }, contents: { type: "array", items: { type: "string" } } },
        required: ["entityName", "contents"],
      },
    },
  },
  required: ["observations"],
};

const NOTION_PAGE = {
  type: "object",
  properties: { properties: { type: "object" }, tags: { type: "array", items: { type: "string" } } },
};

function item(tool: string, args: Record<string, unknown>): SimGoldItem {
  return { id: "own-1", query: "q", category: "single", route: "rewoo", calls: [{ tool, args }], order: "any" };
}

describe("one gold value for the replay, the oracle and the scorer", () => {
  it.each([
    [
      "an array of strings inside an array of objects",
      "add_observations",
      { observations: [[{ entityName: "Ana", contents: [["Lives in Porto"]] }]] },
      ADD_OBSERVATIONS,
      { observations: [{ entityName: "Ana", contents: ["Lives in Porto"] }] },
    ],
    [
      "a dict whose values are alternatives, beside a wrapped list",
      "create_page",
      { properties: { title: ["Standup", { regex: "stand" }], icon: ["", { any: true }] }, tags: [["a", "b"]] },
      NOTION_PAGE,
      { properties: { title: "Standup" }, tags: ["a", "b"] },
    ],
  ])("%s", (_label, tool, args, schema, sent) => {
    const replayed = goldArgs({ tool, args }, schema);
    const [oracle] = goldCalls(item(tool, args));
    expect(replayed).toEqual(sent);
    expect(oracle?.args).toEqual(sent);
    expect(matchJsonArgs(oracle?.args ?? {}, args, schema).valid).toBe(true);
  });
});
