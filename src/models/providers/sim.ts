/**
 * The `sim` provider: the simulator (src/models/sim/), which answers from the dataset's gold labels with
 * a profile's error rates. No server, no weights: its numbers are simulated. `sim:<profile>` names one.
 */

import { z } from "zod";
import { InputError } from "../../errors.ts";
import type { ProviderEntry, ProviderEntryBase } from "../entry.ts";
import { createSimProvider } from "../sim/index.ts";
import type { ProviderDefinition } from "./definition.ts";

export interface SimProviderEntry extends ProviderEntryBase {
  provider: "sim";
  /** `oracle`, `slm-3b`, `slm-7b`, `chaos`. */
  profile: string;
}

export function isSimEntry(entry: ProviderEntry): entry is SimProviderEntry {
  return entry.provider === simDefinition.name;
}

const entrySchema = z.strictObject({
  profile: z.string({ error: "a sim entry needs `profile` (e.g. slm-3b)" }).min(1),
});

function simEntry(common: Omit<ProviderEntryBase, "model">, profile: string): SimProviderEntry {
  return { ...common, provider: "sim", model: `sim:${profile}`, profile };
}

export const simDefinition: ProviderDefinition<SimProviderEntry> = {
  name: "sim",
  entrySchema,
  toEntry: (own, common) => simEntry(common, (own.profile as string).replace(/^sim:/, "")),
  naming: { rest: "profile", entry: (rest, common) => simEntry(common, rest) },
  create: (entry, deps) => {
    if (!deps.gold) {
      throw new InputError(
        "SIM_NEEDS_GOLD",
        `${entry.source}: the simulator answers from the dataset's gold labels; pass the loaded dataset`,
      );
    }
    return createSimProvider({ profile: entry.profile, gold: deps.gold, seed: deps.seed });
  },
  identity: (entry) => ({
    name: entry.name,
    provider: entry.provider,
    model: entry.model,
    options: entry.options,
    baseUrls: [],
  }),
  id: (entry) => `sim:${entry.profile}`,
  provenance: "simulated",
};
