import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SKILLS } from "../../../../src/agent/skills/catalog.ts";
import { InputError } from "../../../../src/errors.ts";
import { readCatalogue, simCatalogue, simProfile, simProfileNames } from "../../../../src/models/sim/catalog.ts";
import { SIM_ERROR_TYPES } from "../../../../src/models/sim/error-types.ts";
import { SimProfileDataError, UnknownSimProfileError } from "../../../../src/models/sim/errors.ts";
import profileData from "../../../../src/models/sim/profiles.json" with { type: "json" };
import { createSimProvider } from "../../../../src/models/sim/provider.ts";
import { tableRows } from "../../../../src/models/sim/testing/markdown.ts";
import { USER_PLAY_MISTAKES } from "../../../../src/models/sim/user-play.ts";

describe("the profile catalogue", () => {
  it("holds the four profiles, each with a rate for every mistake type", () => {
    expect(simProfileNames()).toEqual(["oracle", "slm-3b", "slm-7b", "chaos"]);
    for (const name of simProfileNames())
      expect(Object.keys(simProfile(name).rates).sort()).toEqual([...SIM_ERROR_TYPES].sort());
    expect(Object.values(simProfile("oracle").rates).every((rate) => rate === 0)).toBe(true);
  });

  it("accepts sim:<name> and names the provider after the profile", () => {
    expect(simProfile("sim:slm-7b").name).toBe("slm-7b");
    expect(createSimProvider({ profile: "sim:chaos", gold: [] }).id).toBe("sim:chaos");
    expect(createSimProvider({ profile: "slm-3b", gold: [] }).id).toBe("sim:slm-3b");
  });

  it("refuses an unknown profile with an InputError that lists the known ones", () => {
    const attempt = () => createSimProvider({ profile: "sim:gpt-5", gold: [] });
    expect(attempt).toThrow(UnknownSimProfileError);
    expect(attempt).toThrow(InputError);
    expect(attempt).toThrow(
      'unknown simulator profile "sim:gpt-5"; known: sim:oracle, sim:slm-3b, sim:slm-7b, sim:chaos',
    );
  });

  it("refuses profile data that breaks the schema, naming where", () => {
    const broken = structuredClone(profileData) as { profiles: Record<string, { rates: Record<string, number> }> };
    (broken.profiles["slm-3b"] as { rates: Record<string, number> }).rates.wrong_value = 1.5;
    expect(() => readCatalogue(broken)).toThrow(SimProfileDataError);
    expect(() => readCatalogue(broken)).toThrow("/profiles/slm-3b/rates/wrong_value must be <= 1");
  });

  it("maps every skill block the agent can inject to the servers whose items it matches", () => {
    for (const skill of SKILLS) expect(simCatalogue().skillServers[skill.title], skill.title).toBeDefined();
  });

  it("is documented: the README's rate table is the data's", () => {
    const readme = readFileSync(new URL("../../../../src/models/sim/README.md", import.meta.url), "utf8");
    const names = simProfileNames();
    for (const type of SIM_ERROR_TYPES) {
      const spec = simCatalogue().errorTypes[type];
      const cells = names.map((name) => String(simProfile(name).rates[type]));
      const row = [
        type,
        spec.level,
        ...cells,
        String(spec.toolsSlope),
        String(spec.skillFactor),
        String(spec.fixFactor),
        spec.source,
      ];
      expect(tableRows(readme), type).toContainEqual(row);
    }
  });

  it("is documented: the README's user-play table is the data's", () => {
    const readme = readFileSync(new URL("../../../../src/models/sim/README.md", import.meta.url), "utf8");
    for (const type of USER_PLAY_MISTAKES) {
      const row = [type, ...simProfileNames().map((name) => String(simProfile(name).userPlay[type]))];
      expect(tableRows(readme), type).toContainEqual(row);
    }
  });
});
