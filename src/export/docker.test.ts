import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { AgentFile } from "../config/agent-file.ts";
import { composeFile, containerAgentFile, envExample } from "./docker.ts";
import { huggingFaceId } from "./hf-ids.ts";

const agent = {
  model: {
    name: "qwen2.5:3b",
    provider: "ollama",
    model: "qwen2.5:3b",
    host: "http://127.0.0.1:11434",
    options: {},
    source: "s",
  },
  config: "onsetlab",
  servers: [
    { name: "a", purpose: "p", transport: "stdio", command: "x", env: ["SHARED", "A_ONLY"] },
    { name: "b", purpose: "p", transport: "stdio", command: "x", env: ["SHARED"] },
  ],
} as unknown as AgentFile;

describe("docker formats", () => {
  it(".env.example names every variable once, with who reads it", () => {
    const text = envExample(agent, "vllm");
    expect(text.match(/^[A-Z_]+=$/gm)).toEqual(["SHARED=", "A_ONLY=", "HF_TOKEN="]);
    expect(text).toContain("# server a, server b\nSHARED=");
  });

  it("the container's agent file leaves the model server's address to compose's environment", () => {
    const ollama = containerAgentFile(agent, "ollama");
    expect(ollama.model).not.toHaveProperty("host");
    expect(
      (parse(composeFile(ollama, "ollama")) as { services: { agent: { environment: unknown } } }).services.agent
        .environment,
    ).toEqual({
      OLLAMA_HOST: "http://ollama:11434",
    });
    const vllm = containerAgentFile(agent, "vllm", huggingFaceId(agent.model));
    expect(vllm.model).toMatchObject({ provider: "openai", model: "Qwen/Qwen2.5-3B-Instruct", allowRemote: true });
    expect(vllm.model).not.toHaveProperty("baseUrl");
    const compose = parse(composeFile(vllm, "vllm")) as {
      services: { agent: { environment: unknown }; vllm: { command: string[] } };
    };
    expect(compose.services.agent.environment).toEqual({ OPENAI_BASE_URL: "http://vllm:8000/v1" });
    expect(compose.services.vllm.command).toEqual([
      "--model",
      "Qwen/Qwen2.5-3B-Instruct",
      "--host",
      "0.0.0.0",
      "--port",
      "8000",
      "--enable-auto-tool-choice",
      "--tool-call-parser",
      "hermes",
    ]);
  });

  it("Hugging Face ids: the table, an openai entry named org/name, --hf-id, else a clear refusal", () => {
    expect(huggingFaceId({ ...agent.model, name: "llama3.1:8b", model: "llama3.1:8b" })).toBe(
      "meta-llama/Llama-3.1-8B-Instruct",
    );
    expect(
      huggingFaceId({
        name: "vllm:qwen2.5-7b",
        provider: "openai",
        model: "Qwen/Qwen2.5-7B-Instruct",
        allowRemote: false,
        options: {},
        source: "s",
      }),
    ).toBe("Qwen/Qwen2.5-7B-Instruct");
    expect(
      huggingFaceId({ ...agent.model, name: "phi3:mini", model: "phi3:mini" }, "microsoft/Phi-3-mini-4k-instruct"),
    ).toBe("microsoft/Phi-3-mini-4k-instruct");
    expect(() => huggingFaceId({ ...agent.model, name: "phi3:mini", model: "phi3:mini" })).toThrow(
      /no Hugging Face id known for --model phi3:mini .*--hf-id ORG\/NAME$/,
    );
    expect(() => huggingFaceId(agent.model, "not an id")).toThrow(/--hf-id must be a Hugging Face repository/);
  });
});
