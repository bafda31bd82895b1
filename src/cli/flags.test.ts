import { describe, expect, it } from "vitest";
import { EXPOSURES } from "../bench/dataset/exposure.ts";
import { FlagError, parseChoice } from "./flags.ts";

describe("parseChoice", () => {
  it("returns a listed value, and refuses another naming the flag and every choice", () => {
    expect(parseChoice("--exposure", "own", EXPOSURES)).toBe("own");
    const refused = () => parseChoice("--exposure", "some", EXPOSURES);
    expect(refused).toThrow(FlagError);
    expect(refused).toThrow('--exposure must be one of own, session, all, not "some"');
  });
});
