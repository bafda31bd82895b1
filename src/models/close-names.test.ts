import { describe, expect, it } from "vitest";
import { closeNames, editDistance } from "./close-names.ts";

const SERVED = ["qwen2.5:3b", "qwen2.5:7b", "llama3.2:3b", "gemma2:2b", "mistral:latest", "phi3:mini"];

describe("close model names", () => {
  it("counts keystrokes", () => {
    expect(editDistance("qwen2.5:3bb", "qwen2.5:3b")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("finds the tag a typo was meant to be, the closest first", () => {
    expect(closeNames("qwen2.5:3bb", SERVED)).toEqual(["qwen2.5:3b", "qwen2.5:7b"]);
    expect(closeNames("qwen25:3b", SERVED)[0]).toBe("qwen2.5:3b");
    expect(closeNames("lama3.2:3b", SERVED)).toEqual(["llama3.2:3b"]);
  });

  it("reads a name without a tag as Ollama does (name:latest), and a family as its tags", () => {
    expect(closeNames("mistrall", SERVED)).toEqual(["mistral:latest"]);
    expect(closeNames("qwen2.5", SERVED)).toEqual(["qwen2.5:3b", "qwen2.5:7b"]);
    expect(closeNames("gemma2:9b", SERVED)).toEqual(["gemma2:2b"]);
  });

  it("names nothing far away, and never the name itself", () => {
    expect(closeNames("deepseek-r1:70b", SERVED)).toEqual([]);
    expect(closeNames("mistral", SERVED)).toEqual([]);
  });
});
