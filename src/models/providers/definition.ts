/**
 * What a provider is, as the registry (src/models/provider-registry.ts) knows it: the name models.yaml
 * gives it, the keys its entries take, how an entry becomes a ModelProvider, what the request cache keys
 * its answers by, and whose answers they are. Built-in and outside providers are both such definitions.
 */

import type { z } from "zod";
import type { ModelIdentity } from "../caching-provider.ts";
import type { ProviderEntry, ProviderEntryBase } from "../entry.ts";
import type { SimGoldItem } from "../sim/index.ts";
import type { ModelProvider } from "../types.ts";

/** What making a provider may need besides its entry. */
export interface CreateDeps {
  /** The dataset's gold labels: the simulator answers from them. */
  gold?: readonly SimGoldItem[];
  /** The run's seed (the simulator's; a real model's unless its entry sets `seed`). */
  seed?: number;
}

/** Where an entry is read from: models.yaml, for paths written relative to it. */
export interface EntryPlace {
  /** The `provider:` as written (an outside provider's name or `module:<path>`). */
  provider: string;
  /** `model:` as written. */
  model?: string;
  file: string;
}

/** An entry's common part; a provider decides its `model` (absent in models.yaml: the entry's name). */
export type CommonEntry = Omit<ProviderEntryBase, "model">;

export interface NamingRule<E extends ProviderEntry> {
  /** What the part after `<name>:` is, for messages: `profile`, `model`. */
  rest: string;
  entry(rest: string, common: CommonEntry): E;
}

export interface ProviderDefinition<E extends ProviderEntry = ProviderEntry> {
  /** The `provider:` of models.yaml that names it. */
  readonly name: string;
  /** The entry's own keys as written in models.yaml (snake_case), beside the common ones. */
  readonly entrySchema: z.ZodObject;
  /** The entry from the common part and the own keys `entrySchema` accepted. */
  toEntry(own: Record<string, unknown>, common: CommonEntry, place: EntryPlace): E;
  /** Its naming rule: a model name `<name>:<rest>` with no models.yaml entry stands for `entry(rest)`. */
  readonly naming?: NamingRule<E>;
  create(entry: E, deps: CreateDeps): ModelProvider;
  /** What the request cache keys the model by besides its digest: everything that can change an answer or its validity verdict. */
  identity(entry: E): ModelIdentity;
  /** The provider's id (cassettes are keyed under it); default `<provider>:<model>`. */
  id?(entry: E): string;
  /** Whose answers these are before the run asks the server: a simulator's, or a live model's. */
  readonly provenance: "live" | "simulated";
}
