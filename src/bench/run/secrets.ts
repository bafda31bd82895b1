/**
 * The secrets of this harness: every variable a models.yaml entry names in `api_key_env` and every
 * variable a registry server passes through (`env`). Their values are redacted where data leaves.
 */
import { loadModelsConfig } from "../../config/models-yaml.ts";
import { loadRegistries } from "../../mcp/registry.ts";
import { passedThroughEnv } from "../../mcp/registry-entry.ts";
import { isOpenAIEntry } from "../../models/providers/openai.ts";
import { Redactor, redactorOf } from "../../redact.ts";

function secretNames(modelsFile?: string, registryFiles?: readonly string[]): string[] {
  const models = Object.values(loadModelsConfig(modelsFile).models).flatMap((entry) =>
    isOpenAIEntry(entry) && entry.apiKeyEnv ? [entry.apiKeyEnv] : [],
  );
  const servers = loadRegistries(registryFiles).servers.flatMap(passedThroughEnv);
  return [...models, ...servers];
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
