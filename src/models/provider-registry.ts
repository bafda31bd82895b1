/**
 * Every provider a models.yaml entry can name, built in or from outside, as a definition
 * (providers/definition.ts). The built-ins are registered from providers/index.ts; a library user
 * registers one with `registerProvider`, and `provider: module:./file.ts` names a module whose default
 * export, or named `createProvider`, is a ProviderFactory (the path is relative to models.yaml).
 * Factories may be async (a module is imported on first use), so an outside provider is built on its
 * first call; `createProvider` itself stays synchronous.
 */

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { InputError } from "../errors.ts";
import { importUserModule } from "../load-module.ts";
import type { PluginProviderEntry, ProviderEntry } from "./entry.ts";
import type { ProviderDefinition } from "./providers/definition.ts";
import { BUILT_IN_DEFINITIONS } from "./providers/index.ts";
import type { ChatRequest, CompletionRequest, ModelProvider } from "./types.ts";

/** Builds a provider from its models.yaml entry (`settings:` holds the entry's own keys). */
export type ProviderFactory = (entry: PluginProviderEntry) => ModelProvider | Promise<ModelProvider>;

const definitions = new Map<string, ProviderDefinition>(
  BUILT_IN_DEFINITIONS.map((definition) => [definition.name, definition]),
);

/** The built-in providers' names: an outside provider cannot take one. */
export const BUILT_IN_PROVIDERS: readonly string[] = BUILT_IN_DEFINITIONS.map((definition) => definition.name);

export function registerProvider(name: string, factory: ProviderFactory): void {
  if (BUILT_IN_PROVIDERS.includes(name) || name.startsWith("module:")) {
    throw new InputError("RESERVED_PROVIDER_NAME", `provider name "${name}" is built in or reserved; pick another`);
  }
  definitions.set(
    name,
    outsideDefinition((entry) => new PluginProvider(outsideId(entry), async () => factory(entry))),
  );
}

/** Names registered so far from outside (for messages). */
export function registeredProviders(): string[] {
  return [...definitions.keys()].filter((name) => !BUILT_IN_PROVIDERS.includes(name)).sort();
}

/** The definitions a model entry can name, built in first. */
export function providerDefinitions(): ProviderDefinition[] {
  return [...definitions.values()];
}

/**
 * The definition of a `provider:` as written. A name nobody registered yet, or `module:<path>`, is an
 * outside provider whose factory is found when its provider is made (a library user may register it
 * after reading models.yaml).
 */
export function definitionNamed(provider: string): ProviderDefinition {
  return definitions.get(provider) ?? (provider.startsWith("module:") ? moduleDefinition : unregistered);
}

/** The definition an entry was made by. */
export function definitionOf(entry: ProviderEntry): ProviderDefinition {
  if (!isOutsideEntry(entry)) {
    const definition = definitions.get(entry.provider);
    if (!definition) throw new InputError("UNKNOWN_PROVIDER", `${entry.source}: no provider named "${entry.provider}"`);
    return definition;
  }
  return entry.modulePath === undefined ? definitionNamed(entry.plugin) : moduleDefinition;
}

function isOutsideEntry(entry: ProviderEntry): entry is PluginProviderEntry {
  return entry.provider === "plugin";
}

/** An outside provider: its entry keeps `settings:` as written for its factory; the factory is its own. */
function outsideDefinition(create: (entry: PluginProviderEntry) => ModelProvider): ProviderDefinition {
  const definition: ProviderDefinition<PluginProviderEntry> = {
    name: "plugin",
    entrySchema: z.strictObject({ settings: z.record(z.string(), z.unknown()).optional() }),
    toEntry: (own, common, place) => ({
      ...common,
      provider: "plugin",
      plugin: place.provider,
      ...(place.provider.startsWith("module:")
        ? { modulePath: resolve(dirname(place.file), place.provider.slice("module:".length)) }
        : {}),
      model: place.model ?? common.name,
      settings: (own.settings as Record<string, unknown> | undefined) ?? {},
    }),
    create,
    identity: (entry) => ({
      name: entry.name,
      provider: entry.plugin,
      model: entry.model,
      options: entry.options,
      baseUrls: [],
      settings: entry.settings,
    }),
    id: outsideId,
    provenance: "live",
  };
  return definition;
}

function outsideId(entry: PluginProviderEntry): string {
  return `${entry.plugin}:${entry.model}`;
}

/** A name registered after models.yaml was read, or never: looked up when the provider is made. */
const unregistered = outsideDefinition((entry) => {
  const registered = definitions.get(entry.plugin);
  if (registered) return registered.create(entry, {});
  const known = [...BUILT_IN_PROVIDERS, ...registeredProviders()].join(", ");
  throw new InputError(
    "UNKNOWN_PROVIDER",
    `${entry.source}: no provider named "${entry.plugin}" (known: ${known}; or module:./file.ts)`,
  );
});

const moduleDefinition = outsideDefinition((entry) => {
  const file = entry.modulePath as string;
  if (!existsSync(file)) {
    throw new InputError("PROVIDER_MODULE_MISSING", `${entry.source}: provider module ${file} does not exist`);
  }
  return new PluginProvider(outsideId(entry), async () => {
    const loaded = await importUserModule(file, entry.source);
    const factory = loaded.default ?? loaded.createProvider;
    if (typeof factory !== "function") {
      throw new InputError(
        "BAD_PROVIDER_MODULE",
        `${entry.source}: ${file} must export a provider factory as default or as \`createProvider\``,
      );
    }
    return (factory as ProviderFactory)(entry);
  });
});

/** A provider built on its first call (a module is imported then); its id is known up front (cassettes key on it). */
class PluginProvider implements ModelProvider {
  private built: Promise<ModelProvider> | undefined;

  constructor(
    readonly id: string,
    private readonly build: () => Promise<ModelProvider>,
  ) {}

  private provider(): Promise<ModelProvider> {
    this.built ??= this.build();
    return this.built;
  }

  async complete(request: CompletionRequest) {
    return (await this.provider()).complete(request);
  }

  async chat(request: ChatRequest) {
    return (await this.provider()).chat(request);
  }
}
