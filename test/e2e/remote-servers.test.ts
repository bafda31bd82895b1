/**
 * Remote MCP servers (README "Benchmark your own MCP servers"): a Streamable HTTP server and a legacy SSE
 * server, both real SDK servers on loopback that require a bearer token, reached from registry entries
 * whose Authorization header names an environment variable. Its value is never stored and is redacted;
 * an unset variable is bad input (exit 2) and an SSE server that never answers is a run error (exit 1).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harnessRedactor } from "../../src/bench/run/secrets.ts";
import { EXIT, reportError } from "../../src/cli/exit.ts";
import { RemoteServerError, ServerConnectError } from "../../src/mcp/errors.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistries } from "../../src/mcp/registry.ts";
import { type RemoteServer, startSilentSse, startSse, startStreamableHttp } from "../support/remote-servers.ts";

const TOKEN = "remote-test-token-7f3a9c";
const VARIABLE = "ONSETLAB_TEST_REMOTE_TOKEN";
let http: RemoteServer;
let sse: RemoteServer;
let silent: RemoteServer;

beforeAll(async () => {
  [http, sse, silent] = await Promise.all([startStreamableHttp(TOKEN), startSse(TOKEN), startSilentSse()]);
});
afterAll(async () => {
  delete process.env[VARIABLE];
  await Promise.all([http, sse, silent].map((server) => server.close()));
});

/** A Claude Code style `.mcp.json` of the given servers. */
function mcpJson(servers: Record<string, object>): string {
  const file = join(mkdtempSync(join(tmpdir(), "onsetlab-remote-")), ".mcp.json");
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

const bearer = { Authorization: `Bearer \${${VARIABLE}}` };

async function failureOf(file: string): Promise<{ error: unknown; lines: string[]; code: number }> {
  const error = await ClientPool.open(loadRegistries([file]), { transport: "stdio" }).then(
    async (pool) => {
      await pool.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  const lines: string[] = [];
  const code = reportError(error, (line) => lines.push(...line.trimEnd().split("\n")));
  return { error, lines, code };
}

describe("remote MCP servers with a bearer token from the environment", () => {
  it("connects over Streamable HTTP and SSE, lists and calls their tools, and redacts the token", async () => {
    process.env[VARIABLE] = TOKEN;
    const file = mcpJson({
      weather: { type: "http", url: http.url, headers: bearer },
      "weather-sse": { type: "sse", url: sse.url, headers: bearer },
    });
    const registry = loadRegistries([file]);
    // two servers listing one tool each: the SSE one under another name would clash, so it is asked apart
    const pool = await ClientPool.open(registry, { transport: "stdio", servers: ["weather"] });
    const ssePool = await ClientPool.open(registry, { transport: "stdio", servers: ["weather-sse"] });
    try {
      for (const connected of [pool, ssePool]) {
        expect(connected.listTools().map((tool) => tool.name)).toEqual(["get_forecast"]);
        const result = await connected.callTool("get_forecast", { city: "Porto" });
        expect(result).toMatchObject({ ok: true, text: "Porto: sunny, 21 °C" });
        expect(connected.purposeOf(connected.serverNames()[0]!)).toEqual({
          purpose: "Weather for a city.",
          from: "instructions",
        });
      }
    } finally {
      await Promise.all([pool.close(), ssePool.close()]);
    }
    expect(registry.servers.map((entry) => entry.transport)).toEqual(["http", "sse"]);
    expect(JSON.stringify(registry)).not.toContain(TOKEN);
    expect(harnessRedactor(undefined, [file]).text(`sent Bearer ${TOKEN}`)).not.toContain(TOKEN);
  });

  it("without the token the servers refuse, and the refusal is one line naming the server", async () => {
    process.env[VARIABLE] = "not-the-token";
    const before = http.refused;
    const { error, lines, code } = await failureOf(mcpJson({ weather: { url: http.url, headers: bearer } }));
    expect(error).toBeInstanceOf(RemoteServerError);
    expect(http.refused).toBeGreaterThan(before);
    expect(code).toBe(EXIT.runError);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: server "weather" \(http\) at http:\/\/127\.0\.0\.1:\d+\/mcp did not connect: /);
  });

  it("a header naming an unset variable: one line naming the server, the header and the variable, exit 2", async () => {
    delete process.env[VARIABLE];
    const { error, lines, code } = await failureOf(mcpJson({ weather: { url: http.url, headers: bearer } }));
    expect(error).toBeInstanceOf(ServerConnectError);
    expect(code).toBe(EXIT.badInput);
    expect(lines).toEqual([
      `error: server "weather": header Authorization names \${${VARIABLE}}, which is not set in the environment`,
    ]);
  });

  it("an SSE server that never answers: a run error naming it after its start time (exit 1)", async () => {
    process.env[VARIABLE] = TOKEN;
    const file = join(mkdtempSync(join(tmpdir(), "onsetlab-remote-")), "registry.json");
    writeFileSync(
      file,
      JSON.stringify({ servers: [{ name: "stuck", transport: "sse", url: silent.url, start_timeout_s: 1 }] }),
    );
    const { error, lines, code } = await failureOf(file);
    expect(error).toBeInstanceOf(RemoteServerError);
    expect(code).toBe(EXIT.runError);
    expect(lines).toEqual([
      `error: server "stuck" (sse) at ${silent.url} did not connect: no answer to the MCP handshake within 1 s`,
    ]);
  });
});
