/**
 * The profile catalogue: profiles.json, validated against profiles.schema.json when first read. The
 * docs and the calibration tests read the rates and factors from here; nothing else holds a number.
 */

import { Ajv } from "ajv";
import type { SimErrorType } from "./error-types.ts";
import { SimProfileDataError, UnknownSimProfileError } from "./errors.ts";
import profileData from "./profiles.json" with { type: "json" };
import profileSchema from "./profiles.schema.json" with { type: "json" };
import type { UserPlayMistake } from "./user-play.ts";

export interface SimErrorTypeSpec {
  level: "call" | "request";
  /** `bfcl`: the 3B base rate is a BFCL-measured share; `judgment`: BFCL cannot show this mistake. */
  source: "bfcl" | "judgment";
  /** Rate factor is 1 + toolsSlope × log2(tools shown / referenceTools), within toolsFactorBounds. */
  toolsSlope: number;
  /** Factor when the prompt carries the skill rules of the item's API. */
  skillFactor: number;
  /** Factor when the prompt carries an earlier failure to fix (the ReAct fallback). */
  fixFactor: number;
}

export interface SimSpeed {
  promptTokensPerSec: number;
  evalTokensPerSec: number;
  loadMs: number;
}

export interface SimProfile {
  name: string;
  description: string;
  speed: SimSpeed;
  /** Tokens the model reads; what does not fit is cut as Ollama cuts it (prompt-size.ts). */
  contextWindow: number;
  /** Base probability of each mistake at referenceTools tools, no skill rules, nothing to fix. */
  rates: Record<SimErrorType, number>;
  /** Probability of each mistake when the model plays a conversation's user (user-play.ts). */
  userPlay: Record<UserPlayMistake, number>;
}

export interface SimCatalogue {
  referenceTools: number;
  toolsFactorBounds: [number, number];
  /** Within one level the effective rates are scaled down to sum to at most this. */
  maxLevelTotal: number;
  /** How mistake rates rise over a conversation (rates.ts `conversationFactor`). */
  conversation: { perTurn: number; perThousandHistoryChars: number; maxFactor: number };
  /** Skill block title (`GitHub rules:` → `GitHub`) → the servers whose items those rules match. */
  skillServers: Record<string, string[]>;
  errorTypes: Record<SimErrorType, SimErrorTypeSpec>;
  profiles: Record<string, SimProfile>;
}

let catalogue: SimCatalogue | undefined;

export function simCatalogue(): SimCatalogue {
  if (!catalogue) catalogue = readCatalogue(profileData);
  return catalogue;
}

/** Validates raw profile data; exported so a test can show that bad data is refused. */
export function readCatalogue(data: unknown): SimCatalogue {
  const validate = new Ajv({ allErrors: true }).compile(profileSchema);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
    throw new SimProfileDataError(
      "SIM_PROFILE_DATA",
      `src/models/sim/profiles.json is invalid: ${problems.join("; ")}`,
      {
        context: { problems },
      },
    );
  }
  const raw = data as Omit<SimCatalogue, "profiles"> & { profiles: Record<string, Omit<SimProfile, "name">> };
  const profiles = Object.fromEntries(
    Object.entries(raw.profiles).map(([name, profile]) => [name, { name, ...profile }]),
  );
  return { ...raw, profiles };
}

export function simProfileNames(): string[] {
  return Object.keys(simCatalogue().profiles);
}

/** A profile by name (`slm-3b` or `sim:slm-3b`); an unknown name is an InputError listing the known ones. */
export function simProfile(name: string): SimProfile {
  const bare = name.replace(/^sim:/, "");
  const profile = simCatalogue().profiles[bare];
  if (!profile) {
    const known = simProfileNames().map((known) => `sim:${known}`);
    throw new UnknownSimProfileError(
      "UNKNOWN_SIM_PROFILE",
      `unknown simulator profile "${name}"; known: ${known.join(", ")}`,
      {
        context: { profile: name, known },
      },
    );
  }
  return profile;
}
