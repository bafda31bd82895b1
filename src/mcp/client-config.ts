/**
 * The server configs users already have, read as registry entries: Claude Desktop, Cursor, Windsurf and
 * Claude Code (`.mcp.json`) write `{"mcpServers": {name: {command, args, env} | {type, url, headers}}}`;
 * VS Code (`.vscode/mcp.json`) writes `{"servers": {name: {type, command, args, env, cwd} | {type, url,
 * headers}}}`. Fields a registry has and these files lack take their defaults (the purpose from the
 * server itself, the reset kind by transport), unless the entry carries the registry's own field (a
 * client passes over what it does not know, so `reset`, `fixture_dir`, … may sit beside `command`); fields
 * of the client's own (`disabled`, `autoApprove`, …) are not the harness's and are passed over. The entries
 * then go through the registry's own checks.
 */
import { RegistryError } from "./errors.ts";

/** Which shape a registry file has: the project's own list, or a client's map of servers. */
export type RegistryShape = "registry" | "mcpServers" | "vscode";

export function registryShape(raw: unknown): RegistryShape | undefined {
  if (!isObject(raw)) return undefined;
  if (Array.isArray(raw.servers)) return "registry";
  if (isObject(raw.mcpServers)) return "mcpServers";
  if (isObject(raw.servers)) return "vscode";
  return undefined;
}

const NAME = /^[a-z][a-z0-9_-]*$/;
/** VS Code's `${env:NAME}` and Claude Code's `${NAME}` / `${NAME:-default}`: one reference to a variable. */
const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/** A client config's servers as raw registry entries (validated afterwards by parseRegistry). */
export function clientConfigEntries(raw: Record<string, unknown>, shape: "mcpServers" | "vscode", file: string) {
  const key = shape === "mcpServers" ? "mcpServers" : "servers";
  const servers = raw[key] as Record<string, unknown>;
  return Object.entries(servers).flatMap(([given, server]) => {
    const fail = (problem: string): never => {
      throw new RegistryError("REGISTRY_INVALID", `${file}: ${key}.${given}: ${problem}`, {
        context: { file, where: `${key}.${given}` },
      });
    };
    if (!isObject(server)) return fail("expected an object");
    if (server.disabled === true) return [];
    const name = registryName(given);
    if (!NAME.test(name)) fail('the name must start with a letter, like "github"');
    const url = server.url ?? server.serverUrl;
    const type = transportOf(server.type, url !== undefined, fail);
    const entry: Record<string, unknown> = { name, transport: type };
    if (typeof server.description === "string" && server.description) entry.purpose = server.description;
    if (type === "stdio") {
      if (typeof server.command !== "string" || !server.command) {
        fail('field "command" is required (the program that starts the server), or "url" for a remote server');
      }
      entry.command = server.command;
      if (server.args !== undefined) entry.args = server.args;
      if (server.env !== undefined) entry.env = isObject(server.env) ? envOf(server.env) : server.env;
      if (typeof server.cwd === "string" && !server.cwd.includes("${")) entry.cwd = server.cwd;
    } else {
      entry.url = url;
      if (server.headers !== undefined) {
        entry.headers = isObject(server.headers)
          ? Object.fromEntries(Object.entries(server.headers).map(([header, value]) => [header, headerOf(value)]))
          : server.headers;
      }
    }
    for (const field of HARNESS_FIELDS) if (server[field] !== undefined) entry[field] = server[field];
    return [entry];
  });
}

/** Registry fields a client config does not have, taken when an entry carries them. */
const HARNESS_FIELDS = [
  "purpose",
  "reset",
  "fixture_dir",
  "reset_command",
  "read_only_tools",
  "start_timeout_s",
  "tools",
] as const;

/** A client's server name as a registry name: lower case, other characters as `-`. */
function registryName(given: string): string {
  return given.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
}

function transportOf(type: unknown, hasUrl: boolean, fail: (problem: string) => never): "stdio" | "http" | "sse" {
  if (type === undefined) return hasUrl ? "http" : "stdio";
  if (type === "stdio" || type === "http" || type === "sse") return type;
  if (type === "streamable-http" || type === "streamableHttp") return "http";
  return fail(`field "type" must be "stdio", "http" or "sse", not ${JSON.stringify(type)}`);
}

/** An env value that only names the same variable (`${env:TOKEN}`) passes it through (null); others are values. */
function envOf(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => {
      const only = typeof value === "string" ? /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value) : null;
      return [name, only?.[1] === name ? null : value];
    }),
  );
}

/** Header values in the registry's form: `${NAME}` for each variable reference. */
function headerOf(value: unknown): unknown {
  return typeof value === "string" ? value.replace(REFERENCE, (_, name: string) => `\${${name}}`) : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
