/**
 * The built-in providers, registered with the registry (src/models/provider-registry.ts) as outside
 * ones are with `registerProvider`. A new built-in is a definition in a file of this folder and a line here.
 */

import type { ProviderDefinition } from "./definition.ts";
import { ollamaDefinition } from "./ollama.ts";
import { openaiDefinition } from "./openai.ts";
import { simDefinition } from "./sim.ts";

export const BUILT_IN_DEFINITIONS: readonly ProviderDefinition[] = [ollamaDefinition, openaiDefinition, simDefinition];
