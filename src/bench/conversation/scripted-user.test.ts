import { describe, expect, it } from "vitest";
import { askedUser, GO_AHEAD, replyTo } from "./scripted-user.ts";

const run = (answer: string, calls = 0) => ({
  answer,
  toolCalls: Array.from({ length: calls }, () => ({ blocked: false }) as never),
});

describe("askedUser: no tool call, and the last sentence ends with a question mark", () => {
  it.each([
    ["Which repository do you mean?", true],
    ["I can do that. Which title should the issue get?", true],
    ["Done. Is there anything else?", true],
    ['Should I call it "Fix login"?"', true],
    ["The issue is titled “Why is CI red?” and is open.", false],
    ["I need the title.", false],
    ["", false],
  ])("%j → %s", (answer, asked) => {
    expect(askedUser(run(answer))).toBe(asked);
  });

  it("a run that called a tool acted, whatever its answer asks", () => {
    expect(askedUser(run("I listed them. Which one should I close?", 1))).toBe(false);
  });
});

describe("replyTo", () => {
  it("answers an ask turn with its reply, any other turn with go-ahead", () => {
    expect(replyTo({ user: "x", calls: [], ask: { reply: "acme/api" } })).toEqual({ text: "acme/api", needed: true });
    expect(replyTo({ user: "x", calls: [] })).toEqual({ text: GO_AHEAD, needed: false });
  });
});
