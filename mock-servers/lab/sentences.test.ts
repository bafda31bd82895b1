import { describe, expect, it } from "vitest";
import { splitSentences } from "./sentences.ts";

describe("splitSentences", () => {
  it.each([
    ["One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]],
    ["Dr. Chen leads the team. Mr. Okafor joins later.", ["Dr. Chen leads the team.", "Mr. Okafor joins later."]],
    ["Bring tools, e.g. Python and SQL. Then start.", ["Bring tools, e.g. Python and SQL.", "Then start."]],
    ["It handles approx. 27 requests per second. Fine.", ["It handles approx. 27 requests per second.", "Fine."]],
    [
      "Teams in the U.S. Army and J. R. R. Tolkien agree. Yes.",
      ["Teams in the U.S. Army and J. R. R. Tolkien agree.", "Yes."],
    ],
    ["We met at 9 a.m. Then we left.", ["We met at 9 a.m.", "Then we left."]],
    ["See item No. 5 first. The answer is no. Really.", ["See item No. 5 first.", "The answer is no.", "Really."]],
    ['He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]],
    ["Pi is 3.14 today. Version 2.0 ships.", ["Pi is 3.14 today.", "Version 2.0 ships."]],
    ["lower case after period. stays together", ["lower case after period. stays together"]],
    ["# Heading\n\nBody text here. More.", ["# Heading", "Body text here.", "More."]],
    ["Wait... What happened?", ["Wait...", "What happened?"]],
    ["  spaced   out\ttext.  ", ["spaced out text."]],
    ["", []],
  ])("%j", (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});
