import { describe, expect, it } from "vitest";
import { RegistryError } from "./errors.ts";
import { parseRegistry } from "./registry.ts";
import { passedThroughEnv, resetKind } from "./registry-entry.ts";

describe("client configs read as registries", () => {
  it("Claude Desktop, Cursor, Windsurf: mcpServers with command, args, env; no purpose, reset by default", () => {
    const entries = parseRegistry(
      {
        globalShortcut: "Ctrl+Space",
        mcpServers: {
          Memory: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-memory"],
            env: { MEMORY_FILE_PATH: "/m.jsonl" },
          },
          github: { command: "gh-mcp", env: { GITHUB_TOKEN: "${env:GITHUB_TOKEN}" } },
          old: { command: "x", disabled: true },
          hosted: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${HOSTED_TOKEN}" } },
        },
      },
      "claude_desktop_config.json",
    );
    expect(entries).toEqual([
      {
        name: "memory",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { MEMORY_FILE_PATH: "/m.jsonl" },
      },
      { name: "github", transport: "stdio", command: "gh-mcp", env: { GITHUB_TOKEN: null } },
      {
        name: "hosted",
        transport: "http",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer ${HOSTED_TOKEN}" },
      },
    ]);
    expect(entries.map(resetKind)).toEqual(["restart", "restart", "none"]);
    expect(entries.flatMap(passedThroughEnv)).toEqual(["GITHUB_TOKEN", "HOSTED_TOKEN"]);
  });

  it("VS Code .vscode/mcp.json and Claude Code .mcp.json: typed entries, ${env:NAME} headers, legacy sse", () => {
    const vscode = parseRegistry(
      {
        inputs: [],
        servers: {
          fs: { type: "stdio", command: "node", args: ["fs.js"], cwd: "tools" },
          api: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": "${env:API_KEY}" } },
          legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
        },
      },
      "mcp.json",
    );
    expect(vscode.map((entry) => [entry.name, entry.transport])).toEqual([
      ["fs", "stdio"],
      ["api", "http"],
      ["legacy", "sse"],
    ]);
    expect(vscode[0]).toMatchObject({ cwd: "tools" });
    expect(vscode[1]?.headers).toEqual({ "X-Key": "${API_KEY}" });
  });

  it.each([
    [{ mcpServers: { memory: { args: ["x"] } } }, 'c.json: mcpServers.memory: field "command" is required'],
    [
      { mcpServers: { web: { url: "ftp://example.com/mcp" } } },
      'c.json: mcpServers.web: field "url" must be an http:// or https:// URL for an http server, not "ftp://example.com/mcp"',
    ],
    [
      { servers: { web: { type: "http", url: "https://x.dev/mcp", headers: { Authorization: "Bearer abc123" } } } },
      'c.json: servers.web: field "headers" value of Authorization must name an environment variable',
    ],
    [{ mcpServers: { web: { type: "websocket", url: "wss://x" } } }, 'field "type" must be "stdio", "http" or "sse"'],
    [{ mcp: {} }, '{"mcpServers": { … }} (Claude Desktop, Cursor, Windsurf, Claude Code .mcp.json)'],
  ])("bad input %j: one line naming the file, the server and the field", (raw, message) => {
    const parse = () => parseRegistry(raw, "c.json");
    expect(parse).toThrow(RegistryError);
    expect(parse).toThrow(message);
    try {
      parse();
    } catch (error) {
      expect((error as Error).message.split("\n")).toHaveLength(1);
    }
  });

  it("this project's registry: headers need a remote server and a named variable; purpose may be left out", () => {
    const base = { name: "api", transport: "http", url: "https://x.dev/mcp" };
    expect(parseRegistry({ servers: [{ ...base, headers: { Authorization: "Bearer ${T}" } }] }, "r.json")).toHaveLength(
      1,
    );
    expect(() =>
      parseRegistry({ servers: [{ name: "s", transport: "stdio", command: "x", headers: { A: "${T}" } }] }, "r.json"),
    ).toThrow('field "headers" goes with an http or sse server only');
  });
});
