import { describe, expect, it } from "vitest";
import { OLLAMA_DEFAULT_NUM_CTX, resolveBehaviour } from "./behaviour.ts";
import { keepAliveToMs } from "./ollama-request.ts";
import { KNOWN_MODELS, parseModelList } from "./served-models.ts";

describe("resolveBehaviour", () => {
  it("is lenient by default and realistic in real mode", () => {
    expect(resolveBehaviour(false)).toMatchObject({ truncate: false, cutOutput: false, knownModels: undefined });
    expect(resolveBehaviour(true)).toMatchObject({
      truncate: true,
      cutOutput: true,
      knownModels: KNOWN_MODELS,
      defaultNumCtx: OLLAMA_DEFAULT_NUM_CTX,
      parallel: 1,
    });
  });

  it("sets each behaviour alone over the mode; an undefined one keeps the mode's", () => {
    expect(resolveBehaviour(true, { truncate: false, cutOutput: undefined })).toMatchObject({
      truncate: false,
      cutOutput: true,
    });
    expect(resolveBehaviour(false, { defaultNumCtx: 2048 })).toMatchObject({ truncate: false, defaultNumCtx: 2048 });
  });

  it("queues one request per model when only a queue limit is given", () => {
    expect(resolveBehaviour(false, { maxQueue: 2 })).toMatchObject({ maxQueue: 2, parallel: 1 });
    expect(resolveBehaviour(false, { maxQueue: 2, parallel: 4 })).toMatchObject({ parallel: 4 });
    expect(resolveBehaviour(false).parallel).toBeUndefined();
  });
});

describe("keepAliveToMs", () => {
  it.each([
    [300, 300_000],
    ["5m", 300_000],
    ["1h30m", 5_400_000],
    ["250ms", 250],
    ["-1", -1000],
    ["-1m", -60_000],
    ["0", 0],
  ])("%j → %d ms", (value, ms) => {
    expect(keepAliveToMs(value)).toBe(ms);
  });

  it("refuses what is not a duration, with Go's words", () => {
    expect(() => keepAliveToMs("soon")).toThrow('time: invalid duration "soon"');
  });
});

describe("parseModelList", () => {
  it("takes names and objects", () => {
    expect(parseModelList(["a:1b", { name: "b:2b", tools: false, contextLength: 8192 }])).toEqual([
      { name: "a:1b" },
      { name: "b:2b", tools: false, contextLength: 8192 },
    ]);
  });

  it("names the bad entry and field", () => {
    expect(() => parseModelList({})).toThrow("not a JSON list");
    expect(() => parseModelList(["ok", { name: "x", thinking: "yes" }])).toThrow(/^entry 1\.thinking: /);
    expect(() => parseModelList([{ name: "x", extra: 1 }])).toThrow(/^entry 0: /);
  });
});
