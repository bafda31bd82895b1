import { describe, expect, it } from "vitest";
import { parseTaggedJson } from "../../python/json-tagged.ts";
import { checkDecodedTurns, scoreMultiTurnResult } from "./checker.ts";
import { decodeExecuteStep } from "./decode-execute.ts";
import type { MultiTurnEntry } from "./entries.ts";
import { rec } from "./py.ts";

const entry: MultiTurnEntry = {
  id: "multi_turn_miss_param_9",
  turns: [[], [], []],
  initialConfig: rec({
    GorillaFileSystem: rec({
      root: rec({
        home: rec({ type: "directory", contents: rec({ "a.txt": rec({ type: "file", content: "x\n" }) }) }),
      }),
    }),
  }),
  involvedClasses: ["GorillaFileSystem"],
  excludedFunctions: [],
  missedFunctions: new Map(),
};
const truth = [["mkdir(dir_name='new')"], [], ["cat(file_name='a.txt')"]];

describe("the multi-turn checker (BFCL's rules)", () => {
  it("passes the ground truth, and counts calls made in an empty turn apart", () => {
    expect(checkDecodedTurns(entry, truth, [[truth[0]!], [], [truth[2]!]])).toMatchObject({ valid: true });
    const early = checkDecodedTurns(entry, truth, [[truth[0]!], [["ls()"]], [truth[2]!]]);
    expect(early).toMatchObject({ valid: true, callsInEmptyTurns: 1 });
  });

  it("a call in the empty turn counts through the state it leaves", () => {
    const verdict = checkDecodedTurns(entry, truth, [[truth[0]!], [["touch(file_name='b.txt')"]], [truth[2]!]]);
    expect(verdict).toMatchObject({ valid: false, errorType: "multi_turn:instance_state_mismatch", turn: 2 });
  });

  it("names the empty turn, the state mismatch and the missing result", () => {
    expect(checkDecodedTurns(entry, truth, [[], [], [truth[2]!]])).toMatchObject({
      errorType: "multi_turn:empty_turn_model_response",
      errorMessage: "Model response list is empty for turn 0",
    });
    expect(checkDecodedTurns(entry, truth, [[["mkdir(dir_name='other')"]], [], [truth[2]!]])).toMatchObject({
      errorType: "multi_turn:instance_state_mismatch",
      errorMessage: "Model instance for GorillaFileSystem does not match the state with ground truth instance.",
    });
    expect(checkDecodedTurns(entry, truth, [[truth[0]!], [], [["ls()"]]])).toMatchObject({
      errorType: "multi_turn:execution_response_mismatch",
      details: ['{"file_content": "x\\n"}'],
    });
  });

  it("fails a result with the wrong number of turns as force-terminated, and drops steps that do not decode", () => {
    const short = scoreMultiTurnResult(entry, truth, parseTaggedJson("[[\"mkdir(dir_name='new')\"]]"), "prompt");
    expect(short).toMatchObject({ valid: false, errorType: "multi_turn:force_terminated" });
    const result = parseTaggedJson(
      JSON.stringify([["[mkdir(dir_name='new')]", "I made it."], [], ["cat(file_name='a.txt')"]]),
    );
    expect(scoreMultiTurnResult(entry, truth, result, "prompt")).toMatchObject({ valid: true, undecodedSteps: 1 });
  });
});

describe("decode_execute", () => {
  it("prompt mode prints values as parse_nested_value does; FC mode as repr, comma-joined", () => {
    expect(decodeExecuteStep(parseTaggedJson('"[f(a=1.0, b={\\"k\\": [1, True]}), g()]"'), "prompt")).toEqual([
      "f(a=1.0, b={'k': [1, True]})",
      "g()",
    ]);
    expect(decodeExecuteStep(parseTaggedJson('[{"f": "{\\"a\\": 1.0, \\"b\\": \\"x\\"}"}, {"g": {}}]'), "fc")).toEqual([
      "f(a=1.0,b='x')",
      "g()",
    ]);
    expect(() => decodeExecuteStep(parseTaggedJson('"Sure, done."'), "prompt")).toThrow();
  });
});
