import { performance } from "node:perf_hooks";
import { secretLintProfiler } from "@secretlint/profiler";
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
    ["PGPASSWORD in env", server({ env: { PGPASSWORD: "hunter22" } }), "env.PGPASSWORD"],
    ["DB_PASS in env", server({ env: { DB_PASS: "hunter22" } }), "env.DB_PASS"],
    ["an accessToken field", server({ settings: { accessToken: "abc123" } }), "settings.accessToken"],
    ["a Stripe key", server({ args: ["--stripe", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"] }), "args[1] (a key inside it)"],
    [
      "an Authorization: Bearer argument",
      server({ args: ["-H", "Authorization: Bearer abcdef0123456789"] }),
      "args[1] (a credential inside it)",
    ],
    [
      "a token inside an sh -c string",
      server({ command: "sh", args: ["-c", "API_TOKEN=abc123 exec node srv.js"] }),
      "args[1] (a credential inside it)",
    ],
    [
      "a JWT",
      server({
        args: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"],
      }),
      "args[0] (a key inside it)",
    ],
    ["a GitLab token", server({ args: ["x glpat-ABCDEFGHIJKLMNOPQRST"] }), "args[0] (a key inside it: gitlab)"],
    ["a Google key", server({ args: ["key AIzaSyA1234567890abcdefghijklmnopqrstuv"] }), "args[0] (a key inside it)"],
    [
      "a private key",
      server({ args: ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"] }),
      "args[0] (a key inside it)",
    ],
    // shapes only secretlint's preset knows (no rule of our own names them)
    [
      "an npm token inside an sh -c string",
      server({
        command: "sh",
        args: ["-c", "echo //registry.npmjs.org/:_authToken npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 > .npmrc"],
      }),
      "args[1] (a key inside it: npm)",
    ],
    [
      "a Slack token inside a header value",
      server({ args: ["-H", "X-Slack: xoxb-123456789012-1234567890123-ABCDEFGHIJKLMNOPQRSTUVWX"] }),
      "args[1] (a key inside it: slack)",
    ],
    [
      "a Shopify token in a field of another name",
      server({ settings: { shop: "shpat_r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex" } }),
      "settings.shop (a key inside it: shopify)",
    ],
  ])("refuses %s, naming where", async (_case, value, field) => {
    await expect(refuseInlineSecrets(value, "REG: servers[0] (mine)")).rejects.toThrow(
      `REG: servers[0] (mine): ${field} looks like a secret value`,
    );
  });

  it.each([
    ["variable names", server({ env: ["GITHUB_TOKEN", "MOCK_MCP_FAULTS"] })],
    ["a variable named by its NAME field", { provider: "openai", apiKeyEnv: "VLLM_API_KEY", api_key_env: "X" }],
    ["options that only look alike", { options: { keepAlive: "10m", numCtx: 4096 }, tools: ["create_key"] }],
    ["a flag without a value and a flag taking a variable", server({ args: ["--token", "--verbose", "--key=$KEY"] })],
    ["the mock registry's shape", server({ args: ["dist/mock-servers/github.mjs"], cwd: "..", mock: true })],
    [
      "a variable inside an sh -c string",
      server({ command: "sh", args: ["-c", "API_TOKEN=$API_TOKEN exec node srv.js"] }),
    ],
    ["a bearer variable", server({ args: ["-H", "Authorization: Bearer $TOKEN"] })],
  ])("lets %s through", async (_case, value) => {
    await expect(refuseInlineSecrets(value, "here")).resolves.toBeUndefined();
  });

  it("leaves none of secretlint's profiling marks behind, so a long-lived process's checks do not slow down", async () => {
    const secretlintMarks = () => performance.getEntries().filter((entry) => entry.name.startsWith("@core>")).length;
    await refuseInlineSecrets(server({ args: ["a.js", "b", "c"], env: ["X", "Y"] }), "here");
    await expect(refuseInlineSecrets(server({ args: ["npm_" + "a".repeat(36)] }), "here")).rejects.toThrow(
      "args[0] (a key inside it: npm)",
    );
    expect(secretlintMarks()).toBe(0);
    expect(await secretLintProfiler.getEntries()).toEqual([]);
  });
});
