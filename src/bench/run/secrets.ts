/**
 * The secrets of this harness: every variable a models.yaml entry names in `api_key_env` and every
 * variable a registry server passes through (`env`). Their values are redacted where data leaves.
 */
import { loadModelsConfig } from "../../config/models-yaml.ts";
import { loadRegistries, type RegistryEntry } from "../../mcp/registry.ts";
import { Redactor, redactorOf } from "../../redact.ts";

export function secretNames(modelsFile?: string, registryFiles?: readonly string[]): string[] {
  const models = Object.values(loadModelsConfig(modelsFile).models).flatMap((entry) =>
    "apiKeyEnv" in entry && entry.apiKeyEnv ? [entry.apiKeyEnv] : [],
  );
  const servers = loadRegistries(registryFiles).servers.flatMap(passedThrough);
  return [...models, ...servers];
}

/** The variables a server gets from the environment: listed by name, or given as null (values written in the registry are not secrets of the environment). */
function passedThrough(server: RegistryEntry): string[] {
  if (!server.env) return [];
  if (Array.isArray(server.env)) return server.env;
  return Object.entries(server.env).flatMap(([name, value]) => (value === null ? [name] : []));
}

/** The Redactor of the harness's secrets as the environment holds them now. */
export function harnessRedactor(modelsFile?: string, registryFiles?: readonly string[]): Redactor {
  return redactorOf(secretNames(modelsFile, registryFiles));
}

/** For error lines: the harness's secrets, or none when models.yaml or the registry is what failed to load. */
export function logRedactor(): Redactor {
  try {
    return harnessRedactor();
  } catch {
    return new Redactor([]);
  }
}
