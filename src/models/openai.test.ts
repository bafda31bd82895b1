import { describe, expect, it } from "vitest";
import { BadEndpointError, RemoteEndpointError } from "./errors.ts";
import { DEFAULT_OPENAI_BASE_URL, OpenAIProvider, resolveOpenAIBaseUrl } from "./openai.ts";

describe("OpenAIProvider construction", () => {
  it("refuses a non-loopback base URL unless the entry allows remote endpoints", () => {
    const remote = { model: "gpt-4o-mini", baseUrl: "https://api.example.com/v1", source: "models.yaml: models.cloud" };
    expect(() => new OpenAIProvider(remote)).toThrow(RemoteEndpointError);
    expect(() => new OpenAIProvider(remote)).toThrow(
      "models.yaml: models.cloud: base URL https://api.example.com/v1 is not on this machine; set `allow_remote: true` in the model entry to send prompts there",
    );
    expect(new OpenAIProvider({ ...remote, allowRemote: true }).id).toBe("openai:gpt-4o-mini");
    expect(new OpenAIProvider({ model: "m", baseUrl: "http://localhost:8080/v1/" }).baseUrl).toBe(
      "http://localhost:8080/v1",
    );
  });

  it("rejects a base URL that is not a URL", () => {
    expect(() => new OpenAIProvider({ model: "m", baseUrl: "127.0.0.1:8080" })).toThrow(BadEndpointError);
  });

  it("takes the base URL from the entry, else OPENAI_BASE_URL, else Ollama's /v1", () => {
    expect(resolveOpenAIBaseUrl("http://127.0.0.1:8000/v1", { OPENAI_BASE_URL: "http://x/v1" })).toBe(
      "http://127.0.0.1:8000/v1",
    );
    expect(resolveOpenAIBaseUrl(undefined, { OPENAI_BASE_URL: "http://127.0.0.1:1234/v1/" })).toBe(
      "http://127.0.0.1:1234/v1",
    );
    expect(resolveOpenAIBaseUrl(undefined, {})).toBe(DEFAULT_OPENAI_BASE_URL);
  });
});
