/**
 * Model and configuration names a request may give: a models.yaml entry or a provider-prefixed model,
 * and a configuration of models.yaml. Anything else is a 400 naming the field.
 */
import type { ModelsConfig } from "../config/models-yaml.ts";
import { ApiError } from "./errors.ts";

const PREFIXED_MODEL = /^(sim|openai|ollama):.+$/;

export function checkModelName(models: ModelsConfig, name: string, field: string): void {
  if (name in models.models || PREFIXED_MODEL.test(name)) return;
  throw new ApiError(
    400,
    "UNKNOWN_MODEL",
    `${field}: "${name}" is not in ${models.file}; expected one of ${Object.keys(models.models).join(", ")} or sim:<profile>, ollama:<model>, openai:<model>`,
    { field },
  );
}

export function checkConfigName(models: ModelsConfig, name: string, field: string): void {
  if (name in models.configurations) return;
  throw new ApiError(
    400,
    "UNKNOWN_CONFIGURATION",
    `${field}: "${name}" is not a configuration in ${models.file}; expected one of ${Object.keys(models.configurations).join(", ")}`,
    { field },
  );
}
