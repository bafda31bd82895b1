/**
 * Example: a model served by your own provider module, chosen in models.yaml (`provider: module:./provider.ts`),
 * answering against the in-process server of examples/own-server.ts.
 * The same models.yaml works with the CLI: `pnpm agent --models examples/module-provider/models.yaml --model keyword …`.
 *
 *   pnpm exec tsx examples/module-provider/run.ts
 */
import { fileURLToPath } from "node:url";
import { type AgentResult, createProvider, loadModelsYaml, resolveModel } from "../../src/index.ts";
import { askInventory } from "../own-server.ts";

export const MODELS_FILE = fileURLToPath(new URL("./models.yaml", import.meta.url));

export async function askWithModuleProvider(query: string): Promise<{ providerId: string; result: AgentResult }> {
  const entry = resolveModel(loadModelsYaml(MODELS_FILE), "keyword");
  const model = createProvider(entry);
  return { providerId: model.id, result: await askInventory(query, model) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { providerId, result } = await askWithModuleProvider("How many widgets are in stock?");
  console.log(`${providerId}: ${result.answer}`);
}
