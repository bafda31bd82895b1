/**
 * Providers from outside this repository. A models.yaml entry names one with `provider: <name>` (a name a
 * library user registered with `registerProvider`) or `provider: module:./file.ts` (a module whose
 * default export, or named `createProvider`, is a ProviderFactory; the path is relative to models.yaml).
 * Factories may be async (a module is imported on first use), so the provider they make is built on
 * its first call; `createProvider` itself stays synchronous.
 */

import { existsSync } from "node:fs";
import { InputError } from "../errors.ts";
import { importUserModule } from "../load-module.ts";
import type { PluginProviderEntry } from "./entry.ts";
import type { ChatRequest, CompletionRequest, ModelProvider } from "./types.ts";

/** Builds a provider from its models.yaml entry (`settings:` holds the entry's own keys). */
export type ProviderFactory = (entry: PluginProviderEntry) => ModelProvider | Promise<ModelProvider>;

/** The built-in providers' names: a registered provider cannot take one. */
export const BUILT_IN_PROVIDERS = ["ollama", "openai", "sim"] as const;

const registered = new Map<string, ProviderFactory>();

export function registerProvider(name: string, factory: ProviderFactory): void {
  if ((BUILT_IN_PROVIDERS as readonly string[]).includes(name) || name.startsWith("module:")) {
    throw new InputError("RESERVED_PROVIDER_NAME", `provider name "${name}" is built in or reserved; pick another`);
  }
  registered.set(name, factory);
}

/** Names registered so far (for messages). */
export function registeredProviders(): string[] {
  return [...registered.keys()].sort();
}

/**
 * The provider of a plugin entry. An unknown name or a missing module file fails here, when the bench
 * or the agent makes its providers, not at the first model call.
 */
export function createPluginProvider(id: string, entry: PluginProviderEntry): ModelProvider {
  if (entry.modulePath === undefined) {
    const factory = registered.get(entry.plugin);
    if (!factory) {
      const known = [...BUILT_IN_PROVIDERS, ...registeredProviders()].join(", ");
      throw new InputError(
        "UNKNOWN_PROVIDER",
        `${entry.source}: no provider named "${entry.plugin}" (known: ${known}; or module:./file.ts)`,
      );
    }
    return new PluginProvider(id, async () => factory(entry));
  }
  const file = entry.modulePath;
  if (!existsSync(file)) {
    throw new InputError("PROVIDER_MODULE_MISSING", `${entry.source}: provider module ${file} does not exist`);
  }
  return new PluginProvider(id, async () => {
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
}

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
