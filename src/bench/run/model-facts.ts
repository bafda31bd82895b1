/**
 * Before the first item: each real model's server is asked what it is and what the model can do
 * (`describe`: version, digest, family, size, quantization, window, capabilities), and the model is
 * loaded with one unscored warm-up request, so no measured call pays for the load. A configuration the
 * model cannot run (native without tools; constrained decoding the server ignores, constrained-probe.ts)
 * stops the run here, before anything is written.
 */
import type { Configuration } from "../../config/configuration.ts";
import type { ModelEntry } from "../../config/models-yaml.ts";
import { InputError, OnsetlabError } from "../../errors.ts";
import { ModelError } from "../../models/errors.ts";
import type { ModelFacts, ModelProvider, WarmUp } from "../../models/types.ts";
import { refuseUnconstrained } from "./constrained-probe.ts";

/** What run.json keeps of a model's probe. */
export interface ModelProbe {
  facts: ModelFacts;
  warmUp: WarmUp;
}

/** A model server failed before the first item (a failure every item would not meet: a 500, a time limit). */
export class ModelProbeError extends OnsetlabError {}

/** The `native` strategy on a model whose server says it has no `tools` capability. */
export class NativeWithoutToolsError extends InputError {}

export async function probeModels(
  entries: readonly ModelEntry[],
  provider: (model: string, repeat: number) => ModelProvider,
  resolved: Record<string, Record<string, Configuration>>,
): Promise<Record<string, ModelProbe>> {
  const probes: Record<string, ModelProbe> = {};
  for (const entry of entries) {
    const model = provider(entry.name, 0);
    if (!model.describe || !model.warmUp) {
      await named(entry, () => refuseUnconstrained(entry, model, resolved[entry.name] ?? {}));
      continue;
    }
    const facts = await named(entry, () => model.describe!());
    refuseNativeWithoutTools(entry, facts, resolved[entry.name] ?? {});
    const warmUp = await named(entry, () => model.warmUp!());
    await named(entry, () => refuseUnconstrained(entry, model, resolved[entry.name] ?? {}));
    probes[entry.name] = { facts, warmUp };
  }
  return probes;
}

/** A model error out of `call`, as one line that names the model. */
async function named<T>(entry: ModelEntry, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    throw new ModelProbeError("MODEL_PROBE_FAILED", `model ${entry.name}: ${error.message}`, {
      context: { model: entry.name },
      cause: error,
    });
  }
}

/**
 * Stops the run (exit 2) rather than skip the configuration: a matrix that silently lost a row would be
 * read as complete. The line says which configurations to leave out.
 */
function refuseNativeWithoutTools(entry: ModelEntry, facts: ModelFacts, configs: Record<string, Configuration>): void {
  if (!facts.capabilities || facts.capabilities.includes("tools")) return;
  const native = Object.entries(configs)
    .filter(([, config]) => config.strategy === "native")
    .map(([name]) => name);
  if (native.length === 0) return;
  throw new NativeWithoutToolsError(
    "NATIVE_WITHOUT_TOOLS",
    `model ${entry.name} has no "tools" capability (its server lists: ${facts.capabilities.join(", ") || "none"}), ` +
      `so configuration ${native.join(", ")} (strategy native) cannot run on it: pass --config without ${native.join(", ")}, or pick a model with tool support`,
    { context: { model: entry.name, configs: native, capabilities: facts.capabilities } },
  );
}
