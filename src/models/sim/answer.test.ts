import { describe, expect, it } from "vitest";
import { groundedAnswer } from "./answer.ts";
import type { SimGoldItem } from "./gold.ts";
import { exampleMatching } from "./regex-example.ts";

const item = (answer: SimGoldItem["answer"], calls = 1, category = "single"): SimGoldItem => ({
  id: "x",
  query: "q",
  category,
  route: "rewoo",
  calls: Array.from({ length: calls }, () => ({ tool: "t", args: {} })),
  order: "any",
  ...(answer ? { answer } : {}),
});

describe("grounded answers", () => {
  it("quote only the expected strings the data holds, JSON escapes undone", () => {
    const answer = groundedAnswer(item({ contains: ['He said "hi"', "absent"] }), '{"title":"He said \\"hi\\""}');
    expect(answer).toBe('Here is what I found: He said "hi".');
  });

  it("answer a regex with its match in the data", () => {
    expect(groundedAnswer(item({ regex: "\\b\\d+ open issues?" }), "repo: 3 open issues, 2 closed")).toBe(
      "Here is what I found: 3 open issues.",
    );
  });

  it("answer a lookahead regex over several facts with the fewest data lines that satisfy it", () => {
    const data = "ny: 05:30\nlondon: 09:30\ntokyo: 18:30\nextra: nothing";
    const regex = "^(?=[\\s\\S]*0?5:30)(?=[\\s\\S]*0?9:30)(?=[\\s\\S]*(18:30|6:30))";
    const answer = groundedAnswer(item({ regex }), data);
    expect(answer).toMatch(new RegExp(regex, "i"));
    expect(answer).not.toContain("extra");
  });

  it("use an example of a regex only when the data holds its words", () => {
    expect(groundedAnswer(item({ regex: "(two|2) issues" }), "there are two issues here")).toContain("two issues");
    expect(groundedAnswer(item({ regex: "forty-two widgets" }), "nothing relevant")).not.toMatch(/widgets/);
  });

  it("say what the tools returned when the data holds none of the expected strings", () => {
    expect(groundedAnswer(item({ contains: ["Login fails"] }), '{"issues":[]}')).toBe(
      'The tools returned: {"issues":[]}.',
    );
    expect(groundedAnswer(item({ contains: ["Login fails"] }), "")).toBe(
      "I could not get that information from the tools.",
    );
  });

  it("answer items without calls from the gold check, respecting notContains", () => {
    const missing = {
      ...item({ contains: ["title"], notContains: ["please"] }, 0, "missing_info"),
      missing: ["title"],
    };
    expect(groundedAnswer(missing, "")).toBe("title.");
    const irrelevant = item({ regex: "(can't|cannot)" }, 0, "irrelevant");
    expect(groundedAnswer(irrelevant, "")).toMatch(/^I can't do that/);
    expect(groundedAnswer(item({ anyOf: ["Paris", "paris"] }, 0, "direct"), "")).toBe("Paris.");
  });

  it("put an anchored regex's piece first", () => {
    const answer = groundedAnswer(item({ regex: "^sorry\\b" }, 0, "irrelevant"), "");
    expect(answer).toMatch(/^sorry\. I can't do that/);
  });
});

describe("example strings for a regex", () => {
  it.each([
    ["(can't|cannot|unable)", "can't"],
    ["\\b2 (open )?issues\\b", "2 issues"],
    ["v[0-9]+\\.\\d{2}", "v0.11"],
    ["(?:a|b)c(?!d)", "ac"],
    ["^ok$", "ok"],
  ])("%s → %s", (source, example) => {
    expect(exampleMatching(source)).toBe(example);
  });

  it("gives up on what it cannot satisfy", () => {
    expect(exampleMatching("(?=x)y")).toBeUndefined();
    expect(exampleMatching("[")).toBeUndefined();
  });
});
