import { describe, expect, it } from "vitest";
import { PROTOCOL } from "../protocol.ts";
import { simProfile } from "./catalog.ts";
import { DrawStreams } from "./random.ts";
import { decideUserPlay, readUserScript, USER_LOST, writeUserReply } from "./user-play.ts";

/** A user-play prompt as PROTOCOL's lines give it: two turns, the first with an answer, on turn `on`. */
function prompt(on: number, answer = "It's acme/api."): string {
  return [
    `${PROTOCOL.userPlay} Your script, turn by turn:`,
    `${PROTOCOL.userTurn(1)} List the open issues.`,
    `  ${PROTOCOL.userAnswer} ${answer}`,
    `${PROTOCOL.userTurn(2)} Close the first one.`,
    `${PROTOCOL.userOnTurn(on)} Reply as that user.`,
    `${PROTOCOL.userNoAnswer} Go ahead.`,
    "",
    `${PROTOCOL.userTurn(2)} (a question quoting the script is not read)`,
  ].join("\n");
}

describe("the user stage's script", () => {
  it("reads the turn asked on: its request, its answer, and the words for no answer", () => {
    expect(readUserScript(prompt(1))).toEqual({
      request: "List the open issues.",
      answer: "It's acme/api.",
      noAnswer: "Go ahead.",
    });
    expect(readUserScript(prompt(2))).toEqual({ request: "Close the first one.", noAnswer: "Go ahead." });
    expect(readUserScript("What is the capital of France?")).toEqual({});
  });

  it("writes the answer, part of it, or the request again; a prompt without a script gets a lost user", () => {
    const script = readUserScript(prompt(1));
    expect(writeUserReply(script, undefined)).toBe("It's acme/api.");
    expect(writeUserReply(script, "partial_answer")).toBe("It's api.");
    expect(writeUserReply(script, "repeated_request")).toBe("List the open issues.");
    expect(writeUserReply(readUserScript(prompt(2)), undefined)).toBe("Go ahead.");
    expect(writeUserReply(readUserScript(prompt(1, "Tuesday, room 4 and at noon")), "partial_answer")).toBe("Tuesday");
    expect(writeUserReply({}, undefined)).toBe(USER_LOST);
  });

  it("draws at the profile's userPlay rates, 0 where the mistake cannot happen", () => {
    const profile = simProfile("slm-3b");
    const streams = new DrawStreams(1);
    expect(decideUserPlay(profile, readUserScript(prompt(1)), streams).rates).toEqual(profile.userPlay);
    // one value only: nothing to leave out
    expect(decideUserPlay(profile, readUserScript(prompt(1, "Yes.")), streams).rates.partial_answer).toBe(0);
    expect(decideUserPlay(profile, {}, streams).rates).toEqual({ partial_answer: 0, repeated_request: 0 });
    expect(decideUserPlay(simProfile("oracle"), readUserScript(prompt(1)), streams)).not.toHaveProperty("mistake");
  });
});
