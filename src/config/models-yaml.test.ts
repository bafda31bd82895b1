import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_CONFIG as AGENT_DEFAULTS, DEFAULT_LIMITS, ONSETLAB_AXES, PLUS_AXES } from "../agent/types.ts";
import { ModelsConfigError, UnknownConfigurationError } from "./errors.ts";
import {
  loadModelsConfig,
  matrixConfigs,
  matrixModels,
  parseModelsConfig,
  resolveConfiguration,
  resolveModel,
} from "./models-yaml.ts";

/** The built-in defaults as a configuration resolves them: the agent's, and the bench's exposure. */
const DEFAULT_AGENT_CONFIG = { ...AGENT_DEFAULTS, exposure: "session" };

const shipped = loadModelsConfig();

describe("the shipped models.yaml", () => {
  it("defines the configurations and matrices the bench and reports use", () => {
    expect(Object.keys(shipped.configurations).filter((name) => !name.startsWith("plus-"))).toEqual([
      "onsetlab",
      "onsetlab-plus",
      "rewoo",
      "onsetlab-plus-rewoo",
      "react",
      "native",
      "native-recover",
      "jsonl",
      "jsonl-constrained",
      "filter-3",
      "filter-5",
      "filter-all",
      "no-skills",
      "no-rescue",
      "no-fallback",
      "own-servers",
      "all-servers",
      "no-write-guard",
      "support",
    ]);
    // a user's own prompt, in no matrix but `all`: the example definition driving jsonl
    expect(shipped.configurations.support).toMatchObject({
      strategy: "jsonl",
      definition: { name: "support", protocol: "jsonl", file: "examples/agents/support.md" },
    });
    expect(matrixConfigs(shipped, "default")).toEqual([
      "onsetlab",
      "onsetlab-plus",
      "rewoo",
      "react",
      "native",
      "native-recover",
      "jsonl",
      "jsonl-constrained",
      "no-skills",
      "filter-3",
      "filter-all",
    ]);
    expect(matrixConfigs(shipped, "all")).toEqual(Object.keys(shipped.configurations));
    expect(matrixConfigs(shipped, "smoke")).toEqual(["onsetlab"]);
    expect(matrixConfigs(shipped, "ablation-filter")).toEqual(["filter-3", "filter-5", "onsetlab", "filter-all"]);
    expect(matrixConfigs(shipped, "exposure")).toEqual(["own-servers", "onsetlab", "all-servers"]);
    expect(shipped.defaultMatrix).toBe("default");
  });

  it("resolves each configuration to the axes its name promises", () => {
    const model = resolveModel(shipped, "qwen2.5:3b");
    const resolve = (configName: string) => resolveConfiguration(shipped, { model, configName });
    expect(resolve("onsetlab-plus")).toEqual(DEFAULT_AGENT_CONFIG);
    expect(resolve("onsetlab")).toEqual({ ...DEFAULT_AGENT_CONFIG, ...ONSETLAB_AXES });
    expect(resolve("rewoo")).toEqual({ ...resolve("onsetlab"), strategy: "rewoo" });
    expect(resolve("onsetlab-plus-rewoo")).toEqual({ ...resolve("onsetlab-plus"), strategy: "rewoo" });
    expect(resolve("react")).toMatchObject({ strategy: "react", filter: 8 });
    expect(resolve("native").strategy).toBe("native");
    expect(resolve("jsonl").strategy).toBe("jsonl");
    expect(resolve("filter-3")).toMatchObject({ strategy: "auto", filter: 3 });
    expect(resolve("filter-all").filter).toBe("all");
    expect(resolve("onsetlab").exposure).toBe("session");
    expect(resolve("all-servers")).toMatchObject({ strategy: "auto", exposure: "all" });
    expect(resolve("own-servers")).toEqual({ ...resolve("onsetlab"), exposure: "own" });
    expect(resolve("no-skills")).toMatchObject({
      skills: false,
      rescue: "onsetlab",
      fallback: true,
      writeGuard: "per_tool",
    });
    expect(resolve("no-rescue")).toMatchObject({ skills: true, rescue: "off" });
    expect(resolve("no-fallback").fallback).toBe(false);
    expect(resolve("no-write-guard").writeGuard).toBe("off");
  });

  it("plus-ablation: onsetlab, then onsetlab with one improvement at a time, then onsetlab-plus", () => {
    const model = resolveModel(shipped, "sim:slm-3b");
    const resolve = (configName: string) => resolveConfiguration(shipped, { model, configName });
    const names = matrixConfigs(shipped, "plus-ablation");
    expect(names[0]).toBe("onsetlab");
    expect(names.at(-1)).toBe("onsetlab-plus");
    const reference = resolve("onsetlab");
    const improved = new Set<string>();
    for (const name of names.slice(1, -1)) {
      const changed = Object.entries(resolve(name)).filter(
        ([key, value]) => JSON.stringify(value) !== JSON.stringify(reference[key as keyof typeof reference]),
      );
      // each changes only OnsetLab axes, to this project's value (plan steps and field refs go together once;
      // a compact history needs the results form, as field refs need plan steps)
      for (const [key, value] of changed) {
        expect(PLUS_AXES[key as keyof typeof PLUS_AXES]).toEqual(value);
        improved.add(key);
      }
      expect(changed.length === 1 || name === "plus-plan-steps-refs" || name === "plus-history-compact").toBe(true);
    }
    // every axis has its configuration
    expect([...improved].sort()).toEqual(Object.keys(PLUS_AXES).sort());
  });

  it("maps a model entry's options to generation options", () => {
    expect(resolveModel(shipped, "qwen2.5:3b")).toMatchObject({
      provider: "ollama",
      model: "qwen2.5:3b",
      options: { keepAlive: "10m" },
    });
    // num_ctx: auto is the provider's default: no window is set in the options
    expect(resolveModel(shipped, "qwen2.5:3b").options.numCtx).toBeUndefined();
    expect(resolveModel(shipped, "vllm:qwen2.5-7b")).toMatchObject({
      provider: "openai",
      model: "Qwen/Qwen2.5-7B-Instruct",
      baseUrl: "http://127.0.0.1:8000/v1",
      apiKeyEnv: "VLLM_API_KEY",
      allowRemote: false,
      timeoutMs: 60000,
    });
  });
});

describe("resolveModel", () => {
  it("resolves names not in the file: sim:<profile>, openai:<model>, ollama:<model>, anything else → Ollama", () => {
    expect(resolveModel(shipped, "sim:slm-3b")).toMatchObject({
      provider: "sim",
      profile: "slm-3b",
      model: "sim:slm-3b",
    });
    expect(resolveModel(shipped, "openai:qwen2.5-3b")).toMatchObject({
      provider: "openai",
      model: "qwen2.5-3b",
      allowRemote: false,
    });
    expect(resolveModel(shipped, "ollama:phi4-mini")).toMatchObject({ provider: "ollama", model: "phi4-mini" });
    const unknown = resolveModel(shipped, "granite3.3:2b");
    expect(unknown).toMatchObject({ provider: "ollama", model: "granite3.3:2b", options: {}, agent: {} });
    expect(unknown.source).toMatch(/not in .*models\.yaml: served by Ollama/);
  });

  it("rejects an empty name", () => {
    expect(() => resolveModel(shipped, " ")).toThrow(/--model needs a model name/);
  });
});

describe("precedence: CLI > model entry > configuration > defaults > built-in", () => {
  const config = parseModelsConfig(
    `
defaults: { filter: 5, rescue: false, limits: { planner_max_tokens: 100, tool_timeout_ms: 1000 } }
models:
  small: { provider: ollama, model: tiny:1b, agent: { filter: 3, limits: { planner_max_tokens: 90 } } }
configurations:
  base: {}
  wide: { filter: 10, skills: false, limits: { planner_max_tokens: 120, solver_max_tokens: 50 } }
matrices: { m: [base, wide] }
`,
    "test.yaml",
  );
  const small = resolveModel(config, "small");
  const other = resolveModel(config, "other:7b");

  it("applies each layer over the one below, limits key by key", () => {
    expect(resolveConfiguration(config, { model: other, configName: "base" })).toEqual({
      ...DEFAULT_AGENT_CONFIG,
      filter: 5,
      rescue: "off",
      limits: { ...DEFAULT_LIMITS, plannerMaxTokens: 100, toolTimeoutMs: 1000 },
    });
    expect(resolveConfiguration(config, { model: other, configName: "wide" })).toMatchObject({
      filter: 10,
      skills: false,
      rescue: "off",
      limits: { plannerMaxTokens: 120, solverMaxTokens: 50, toolTimeoutMs: 1000 },
    });
    expect(resolveConfiguration(config, { model: small, configName: "wide" })).toMatchObject({
      filter: 3,
      skills: false,
      limits: { plannerMaxTokens: 90, solverMaxTokens: 50, toolTimeoutMs: 1000 },
    });
    expect(
      resolveConfiguration(config, {
        model: small,
        configName: "wide",
        cli: { filter: "all", rescue: true, limits: { plannerMaxTokens: 60 } },
      }),
    ).toMatchObject({
      filter: "all",
      rescue: "extended",
      skills: false,
      limits: { plannerMaxTokens: 60, solverMaxTokens: 50 },
    });
  });

  it("names the configuration or matrix it does not know, and the ones it does", () => {
    expect(() => resolveConfiguration(config, { model: small, configName: "nope" })).toThrow(UnknownConfigurationError);
    expect(() => resolveConfiguration(config, { model: small, configName: "nope" })).toThrow(
      '--config "nope" is not a configuration in test.yaml; expected one of: base, wide',
    );
    expect(() => matrixConfigs(config, "big")).toThrow(
      '--matrix "big" is not a matrix in test.yaml; expected one of: m',
    );
    expect(matrixModels(config, "m")).toBeUndefined();
  });
});

describe("validation on load", () => {
  const invalid = (yaml: string) => {
    try {
      parseModelsConfig(yaml, "models.yaml");
    } catch (error) {
      expect(error).toBeInstanceOf(ModelsConfigError);
      return (error as Error).message;
    }
    throw new Error("expected the file to be rejected");
  };

  it("names the file and the key path of each problem", () => {
    expect(invalid("configurations: { a: { filter: 0 } }")).toMatch(/^models\.yaml: configurations\.a\.filter: /);
    expect(invalid("configurations: { a: { strategy: planner } }")).toMatch(
      /configurations\.a\.strategy: Invalid option/,
    );
    expect(invalid("configurations: { a: { limits: { planner_tokens: 5 } } }")).toMatch(
      /configurations\.a\.limits: Unrecognized key: "planner_tokens"/,
    );
    expect(invalid("configurations: {}\nmodels: { x: { provider: sim } }")).toMatch(
      /models\.x\.profile: a sim entry needs `profile`/,
    );
    expect(invalid("configurations: {}\nmodels: { x: { provider: ollama, base_url: http://h/v1 } }")).toMatch(
      /models\.x\.base_url: only an openai entry takes `base_url`/,
    );
    expect(invalid("configurations: {}\nmodels: { x: { provider: ollama, tokenizer: off } }")).toMatch(
      /models\.x\.tokenizer: only an openai entry takes `tokenizer`/,
    );
    expect(invalid("configurations: {}\nmodels: { x: { provider: openai, tokenizer: exact } }")).toMatch(
      /models\.x\.tokenizer: Invalid option/,
    );
    expect(invalid("configurations: {}\nmodels: { x: { provider: openai, api_key_env: sk-abc123 } }")).toMatch(
      /models\.x\.api_key_env: expected the NAME of an environment variable/,
    );
    expect(invalid("configurations: { a: {} }\nmatrices: { m: [a, b] }")).toMatch(
      /matrices\.m\[1\]: no configuration named "b"/,
    );
    expect(invalid("configurations: { a: {} }\ndefault_matrix: x")).toMatch(/default_matrix: no matrix named "x"/);
    expect(invalid("models: {}")).toMatch(/configurations: /);
  });

  it("reads an openai entry's tokenizer setting (auto when not given)", () => {
    const config = parseModelsConfig(
      "configurations: {}\nmodels: { a: { provider: openai, tokenizer: off }, b: { provider: openai } }",
      "models.yaml",
    );
    expect(resolveModel(config, "a")).toMatchObject({ provider: "openai", tokenizer: "off" });
    expect(resolveModel(config, "b")).not.toHaveProperty("tokenizer");
  });

  it("reads base_urls (a URL, or {url, concurrency}) and names the entry of a bad one", () => {
    const config = parseModelsConfig(
      "configurations: {}\nmodels:\n  lab: { provider: ollama, model: qwen2.5:3b, base_urls: [http://gpu1:11434, { url: http://gpu2:11434, concurrency: 3 }] }",
      "models.yaml",
    );
    expect(resolveModel(config, "lab")).toMatchObject({
      baseUrls: [
        { url: "http://gpu1:11434", concurrency: 1 },
        { url: "http://gpu2:11434", concurrency: 3 },
      ],
    });
    expect(invalid("configurations: {}\nmodels: { x: { provider: ollama, base_urls: [gpu1:11434] } }")).toMatch(
      /^models\.yaml: models\.x\.base_urls\[0\]: .*expected an http\(s\) URL/,
    );
    expect(
      invalid(
        "configurations: {}\nmodels: { x: { provider: ollama, base_urls: [{ url: http://a:1, concurrency: 0 }] } }",
      ),
    ).toMatch(/models\.x\.base_urls\[0\]/);
    expect(
      invalid("configurations: {}\nmodels: { x: { provider: ollama, host: http://a:1, base_urls: [http://b:1] } }"),
    ).toMatch(/models\.x\.base_urls: give `base_urls` or `host`, not both/);
    expect(
      invalid("configurations: {}\nmodels: { x: { provider: sim, profile: slm-3b, base_urls: [http://b:1] } }"),
    ).toMatch(/models\.x\.base_urls: only an ollama or openai entry takes `base_urls`/);
  });

  it("names each OnsetLab axis given a value it does not have", () => {
    const axes: [string, string][] = [
      ["router", "smart"],
      ["plan_steps", "two"],
      ["plan_examples", "none"],
      ["field_refs", "paths"],
      ["validation", "loose"],
      ["rescue", "all"],
      ["fallback_trigger", "always"],
      ["fallback_iterations", "0"],
      ["react_protocol", "xml"],
      ["react_ending", "none"],
      ["write_guard", "per_query"],
      ["builtins", "never"],
      ["solver_data", "all"],
      ["skills_in_react", "maybe"],
    ];
    for (const [key, value] of axes) {
      expect(invalid(`configurations: { a: { ${key}: ${value} } }`)).toMatch(
        new RegExp(`^models\\.yaml: configurations\\.a\\.${key}: `),
      );
    }
  });

  it("reads the OnsetLab axes, and the old booleans of rescue and write_guard", () => {
    const config = parseModelsConfig(
      `configurations:
  a: { router: plus, plan_steps: many, plan_examples: concrete, field_refs: on, validation: lenient,
       rescue: true, fallback_trigger: any_failed, fallback_iterations: 3, react_protocol: json,
       react_ending: solver, write_guard: false, builtins: ranked, solver_data: shared, skills_in_react: on }
  b: { rescue: false, write_guard: true, field_refs: off }`,
      "models.yaml",
    );
    const model = resolveModel(config, "sim:slm-3b");
    expect(resolveConfiguration(config, { model, configName: "a" })).toMatchObject({
      ...PLUS_AXES,
      // not named in "a": the built-in default's, which leaves it off
      historyCompact: false,
      fallbackIterations: 3,
      writeGuard: "off",
    });
    expect(resolveConfiguration(config, { model, configName: "b" })).toMatchObject({
      rescue: "off",
      writeGuard: "per_call",
      fieldRefs: false,
    });
  });

  it("reports YAML syntax errors with file:line:column", () => {
    expect(invalid("configurations:\n  a: { filter: 3\n")).toMatch(/^models\.yaml:\d+:\d+: not valid YAML/);
    expect(invalid("configurations: { a: {}, a: {} }")).toMatch(/not valid YAML: Map keys must be unique/);
  });

  it("names a file it cannot read", () => {
    const dir = mkdtempSync(join(tmpdir(), "models-"));
    expect(() => loadModelsConfig(join(dir, "missing.yaml"))).toThrow(/cannot read .*missing\.yaml/);
    writeFileSync(
      join(dir, "ok.yaml"),
      "configurations: { only: {} }\nmatrices: { m: { configs: [only], models: [a, b] } }\n",
    );
    const config = loadModelsConfig(join(dir, "ok.yaml"));
    expect(matrixModels(config, "m")).toEqual(["a", "b"]);
  });
});
