import { describe, expect, it } from "vitest";
import { conversationOf } from "./conversation-runs.ts";
import { ApiError } from "./errors.ts";

describe("conversationOf", () => {
  it("makes earlier turns of user, assistant and tool messages; system messages become context", () => {
    const { history, query, system } = conversationOf([
      { role: "system", content: "Answer briefly." },
      { role: "user", content: "Latest release of acme/api?" },
      { role: "tool", name: "get_latest_release", content: '{"tag":"v1.1.0"}' },
      { role: "assistant", content: "v1.1.0" },
      { role: "user", content: "And its branches?" },
    ]);
    expect(query).toBe("And its branches?");
    expect(system).toBe("Answer briefly.");
    expect(history).toEqual([
      {
        user: "Latest release of acme/api?",
        calls: [{ tool: "get_latest_release", args: {}, ok: true, text: '{"tag":"v1.1.0"}' }],
        answer: "v1.1.0",
      },
    ]);
  });

  it("refuses messages that do not end with the user's turn, naming the field", () => {
    const error = (() => {
      try {
        conversationOf([
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, field: "messages" });
  });

  it("refuses an assistant message before any user message, naming its index", () => {
    expect(() =>
      conversationOf([
        { role: "assistant", content: "hello" },
        { role: "user", content: "hi" },
      ]),
    ).toThrow(expect.objectContaining({ status: 400, field: "messages.0" }));
  });
});
