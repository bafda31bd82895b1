import { describe, expect, it } from "vitest";
import { refuseInlineSecrets } from "./secrets.ts";

const server = (extra: Record<string, unknown>) => ({
  name: "mine",
  purpose: "p",
  transport: "stdio",
  command: "node",
  ...extra,
});

describe("refuseInlineSecrets", () => {
  it.each([
    ["a variable with a value", server({ env: ["PATH", "SLACK_TOKEN=xoxb-1"] }), 'env[1] "SLACK_TOKEN=…"'],
    ["a --token=value argument", server({ args: ["srv.js", "--token=abc"] }), "args[1] (--token with a value)"],
    ["a --api-key value pair", server({ args: ["srv.js", "--api-key", "abc"] }), "args[1] (--api-key with a value)"],
    ["a field named like a credential", server({ headers: { Authorization: "Bearer x" } }), "headers.Authorization"],
    ["a key by its prefix", server({ args: ["ghp_0123456789abcdef"] }), "args[0]"],
    ["a URL with a password", { baseUrl: "https://me:pw@llm.example.com/v1" }, "baseUrl (a URL with a password)"],
    [
      "a URL with a key",
      server({ transport: "http", url: "https://x.example.com/mcp?api_key=abc" }),
      "url (a URL with a key)",
    ],
  ])("refuses %s, naming where", (_case, value, field) => {
    expect(() => refuseInlineSecrets(value, "REG: servers[0] (mine)")).toThrow(
      `REG: servers[0] (mine): ${field} looks like a secret value`,
    );
  });

  it.each([
    ["variable names", server({ env: ["GITHUB_TOKEN", "MOCK_MCP_FAULTS"] })],
    ["a variable named by its NAME field", { provider: "openai", apiKeyEnv: "VLLM_API_KEY", api_key_env: "X" }],
    ["options that only look alike", { options: { keepAlive: "10m", numCtx: 4096 }, tools: ["create_key"] }],
    ["a flag without a value and a flag taking a variable", server({ args: ["--token", "--verbose", "--key=$KEY"] })],
    ["the mock registry's shape", server({ args: ["dist/mock-servers/github.mjs"], cwd: "..", mock: true })],
  ])("lets %s through", (_case, value) => {
    expect(() => refuseInlineSecrets(value, "here")).not.toThrow();
  });
});
