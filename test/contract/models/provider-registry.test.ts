import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModelsConfig, parseModelsConfig, resolveModel } from "../../../src/config/models-yaml.ts";
import { createProvider } from "../../../src/models/factory.ts";
import { registerProvider } from "../../../src/models/provider-registry.ts";
import type { ChatRequest, ModelProvider } from "../../../src/models/types.ts";

const usage = { promptTokens: 1, completionTokens: 1 };

/** A provider that answers with its settings' greeting and the model name. */
function greeter(greeting: string, model: string): ModelProvider {
  return {
    id: "ignored",
    complete: async () => ({ text: `${greeting} ${model}`, usage, timings: { totalMs: 0 } }),
    chat: async () => ({ text: `${greeting} ${model}`, toolCalls: [], usage, timings: { totalMs: 0 } }),
  };
}

const chat: ChatRequest = { stage: "native", messages: [{ role: "user", content: "hi" }] };

function modelsFile(dir: string, models: string): string {
  const file = join(dir, "models.yaml");
  writeFileSync(file, `models:\n${models}\nconfigurations:\n  base: {}\n`);
  return file;
}

describe("plugin providers", () => {
  it("a registered name in models.yaml builds its provider with the entry's settings", async () => {
    registerProvider("greeter-test", (entry) => greeter(String(entry.settings.greeting), entry.model));
    const config = parseModelsConfig(
      "models:\n  g:\n    provider: greeter-test\n    model: m1\n    settings: { greeting: hello }\nconfigurations:\n  base: {}\n",
      "m.yaml",
    );
    const provider = createProvider(resolveModel(config, "g"));
    expect(provider.id).toBe("greeter-test:m1");
    expect((await provider.chat(chat)).text).toBe("hello m1");
  });

  it("module:<path> is relative to models.yaml and its default export builds the provider", async () => {
    const dir = mkdtempSync(join(tmpdir(), "provider-module-"));
    writeFileSync(
      join(dir, "p.mjs"),
      "export default (entry) => ({ id: 'x', complete: async () => ({ text: 'module ' + entry.settings.word, usage: { promptTokens: 0, completionTokens: 0 }, timings: { totalMs: 0 } }) });\n",
    );
    const file = modelsFile(dir, "  mine:\n    provider: module:./p.mjs\n    settings: { word: says }");
    const provider = createProvider(resolveModel(loadModelsConfig(file), "mine"));
    expect(provider.id).toBe("module:./p.mjs:mine");
    expect((await provider.complete({ stage: "solver", prompt: "p" })).text).toBe("module says");
  });

  it("an unknown name or a missing module fails when the provider is made, naming the entry", () => {
    const config = parseModelsConfig(
      "models:\n  a:\n    provider: olama\n  b:\n    provider: module:./nowhere.ts\nconfigurations:\n  base: {}\n",
      "/tmp/x/m.yaml",
    );
    expect(() => createProvider(resolveModel(config, "a"))).toThrow(
      /m\.yaml: models\.a: no provider named "olama" \(known: ollama, openai, sim/,
    );
    expect(() => createProvider(resolveModel(config, "b"))).toThrow(
      /provider module \/tmp\/x\/nowhere\.ts does not exist/,
    );
  });

  it("a module without a factory export is refused on first use", async () => {
    const dir = mkdtempSync(join(tmpdir(), "provider-module-"));
    writeFileSync(join(dir, "bad.mjs"), "export const nothing = 1;\n");
    const provider = createProvider(
      resolveModel(loadModelsConfig(modelsFile(dir, "  bad:\n    provider: module:./bad.mjs")), "bad"),
    );
    await expect(provider.chat(chat)).rejects.toThrow(
      /must export a provider factory as default or as `createProvider`/,
    );
  });

  it("built-in names cannot be registered, and settings belong to plugin entries only", () => {
    expect(() => registerProvider("ollama", () => greeter("", ""))).toThrow(/built in or reserved/);
    expect(() =>
      parseModelsConfig(
        "models:\n  s:\n    provider: sim\n    profile: oracle\n    settings: { a: 1 }\nconfigurations:\n  base: {}\n",
        "m.yaml",
      ),
    ).toThrow(/models\.s\.settings: only a plugin entry takes `settings`/);
  });
});
