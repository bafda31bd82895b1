import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { clientConfigEntries, type RegistryShape, registryShape } from "./client-config.ts";
import { RegistryError } from "./errors.ts";
import { FIXTURE_PLACEHOLDER, HEADER_VARIABLE, isRemote, resetKind } from "./registry-entry.ts";

/**
 * How a server's state is put back between tasks (DESIGN §5). `restart`: a fresh process (clears what it
 * keeps in memory, not what it wrote to disk); `fixture`: a fresh process in a fresh copy of `fixture_dir`;
 * `command`: `reset_command` runs before the task; `none`: nothing (recorded, and the run warns).
 */
export const RESET_KINDS = ["restart", "fixture", "command", "none"] as const;
export type ResetKind = (typeof RESET_KINDS)[number];

/** One server in a registry file (DESIGN §5). Mock servers and a user's real servers look the same. */
export interface RegistryEntry {
  name: string;
  /** What the server is for; without it, the server's own `instructions` or name say (pool.ts `purposeOf`). */
  purpose?: string;
  /** `http`: Streamable HTTP; `sse`: the legacy HTTP+SSE transport of older remote servers. */
  transport: "stdio" | "http" | "sse";
  /** stdio: the program and its arguments; `node` means the running Node binary. */
  command?: string;
  args?: string[];
  /**
   * stdio: names of environment variables passed through to the server (values are never stored), or an
   * object of variables set to the given values (`{fixture}` allowed; a value of null passes the variable through).
   */
  env?: string[] | Record<string, string | null>;
  /** stdio: working directory, relative to the registry file (default: the registry's folder, or the fixture copy). */
  cwd?: string;
  /** http: the Streamable HTTP endpoint; sse: the SSE stream's URL. */
  url?: string;
  /**
   * http, sse: request headers whose values come from environment variables only, named as `${NAME}`
   * (`"Authorization": "Bearer ${API_TOKEN}"`); the values are never stored and are redacted like every secret.
   */
  headers?: Record<string, string>;
  /** The tool names the server is expected to list (checked by tests, informative for users). */
  tools?: string[];
  /** A mock of this project: has the hidden __reset/__state/__check/__faults tools and can run in-process. */
  mock?: boolean;
  /** Not for mocks (they reset in-process). Default: `restart` for stdio, `none` for http. */
  reset?: ResetKind;
  /** With `reset: fixture`: the folder copied fresh for every task, relative to the registry file. */
  fixture_dir?: string;
  /** With `reset: command`: the program and its arguments, run in the registry's folder; must exit 0. */
  reset_command?: string[];
  /** Tools the user declares read-only (beside the MCP `readOnlyHint` annotation). */
  read_only_tools?: string[];
  /** Seconds the server may take to start and answer the MCP handshake (default 15). */
  start_timeout_s?: number;
}

export interface Registry {
  /** The registry file (several, comma-separated, when merged): names it in messages. */
  file: string;
  /** Absolute folder that relative `cwd`s resolve against. */
  baseDir: string;
  servers: RegistryEntry[];
  /** Per server, the folder of the file that declares it, where registries were merged from several folders. */
  baseDirs?: Record<string, string>;
  /** How the file was read: this project's registry, or a client's config (one file only). */
  shape?: RegistryShape;
}

export const DEFAULT_REGISTRY = join(REPO_ROOT, "mock-servers", "registry.json");

const NAME = /^[a-z][a-z0-9_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Every field a registry entry may have (the agent file's schema carries the same). */
export const REGISTRY_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "purpose",
  "transport",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "tools",
  "mock",
  "reset",
  "fixture_dir",
  "reset_command",
  "read_only_tools",
  "start_timeout_s",
]);

export function loadRegistry(file: string = DEFAULT_REGISTRY): Registry {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new RegistryError("REGISTRY_UNREADABLE", `${file}: cannot read the server registry`, { cause });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new RegistryError("REGISTRY_INVALID", `${file}: not valid JSON (${(cause as Error).message})`, { cause });
  }
  const baseDir = dirname(resolve(file));
  return { file, baseDir, servers: parseRegistry(raw, file, baseDir), shape: registryShape(raw) ?? "registry" };
}

/**
 * The servers of several registry files as one registry (`--registry A --registry B`); none means the mock
 * servers' own. A server name declared in two files is bad input naming both.
 */
export function loadRegistries(files: readonly string[] = []): Registry {
  if (files.length === 0) return loadRegistry();
  const loaded = files.map((file) => loadRegistry(resolve(file)));
  if (loaded.length === 1) return loaded[0]!;
  const declaredIn = new Map<string, string>();
  const baseDirs: Record<string, string> = {};
  for (const registry of loaded) {
    for (const entry of registry.servers) {
      const earlier = declaredIn.get(entry.name);
      if (earlier) {
        throw new RegistryError(
          "REGISTRY_NAME_CLASH",
          `server "${entry.name}" is declared in both ${earlier} and ${registry.file}; rename one of them`,
          { context: { server: entry.name, files: [earlier, registry.file] } },
        );
      }
      declaredIn.set(entry.name, registry.file);
      baseDirs[entry.name] = registry.baseDir;
    }
  }
  return {
    file: loaded.map((registry) => registry.file).join(", "),
    baseDir: loaded[0]!.baseDir,
    servers: loaded.flatMap((registry) => registry.servers),
    baseDirs,
  };
}

/** A write to this server can be undone before the next task: a mock, a fixture copy or a reset command. */
export function canUndoWrites(entry: RegistryEntry): boolean {
  const kind = resetKind(entry);
  return kind === "mock" || kind === "fixture" || kind === "command";
}

/** The tool changes nothing: its server says so (`readOnlyHint`) or the registry entry lists it in `read_only_tools`. */
export function isReadOnlyTool(entry: RegistryEntry, tool: ToolDefinition): boolean {
  return tool.annotations.readOnlyHint === true || (entry.read_only_tools ?? []).includes(tool.name);
}

/**
 * Validates a parsed registry; every problem names the entry and the field. With `baseDir` (a file on
 * disk), a `fixture_dir` must be a folder that exists.
 */
export function parseRegistry(raw: unknown, file: string, baseDir?: string): RegistryEntry[] {
  const fail = (where: string, problem: string): never => {
    throw new RegistryError("REGISTRY_INVALID", `${file}: ${where}: ${problem}`, { context: { file, where } });
  };
  const shape = registryShape(raw);
  if (shape === undefined) {
    fail(
      "top level",
      'expected {"servers": [ … ]} (this project\'s registry), {"mcpServers": { … }} (Claude Desktop, Cursor, ' +
        'Windsurf, Claude Code .mcp.json) or {"servers": { … }} (VS Code .vscode/mcp.json)',
    );
  }
  const record = raw as Record<string, unknown>;
  const servers = shape === "registry" ? (record.servers as unknown[]) : clientConfigEntries(record, shape!, file);
  const key = shape === "mcpServers" ? "mcpServers" : "servers";
  const seen = new Set<string>();
  return servers.map((item, index) => {
    const named = isObject(item) && typeof item.name === "string";
    const where =
      shape === "registry"
        ? `servers[${index}]${named ? ` (${item.name})` : ""}`
        : `${key}.${(item as { name: string }).name}`;
    if (!isObject(item)) return fail(where, "expected an object");
    const field = (key: string, problem: string) => fail(where, `field "${key}" ${problem}`);
    for (const key of Object.keys(item)) {
      if (!REGISTRY_FIELDS.has(key)) field(key, `is not a registry field (known: ${[...REGISTRY_FIELDS].join(", ")})`);
    }
    if (typeof item.name !== "string" || !NAME.test(item.name)) field("name", "must be a lowercase name like github");
    if (seen.has(item.name as string)) field("name", "is used by an earlier entry");
    seen.add(item.name as string);
    if (item.purpose !== undefined && (typeof item.purpose !== "string" || !item.purpose)) {
      field("purpose", "must be a non-empty string (or left out: the server's own instructions or name say)");
    }
    if (item.transport !== "stdio" && item.transport !== "http" && item.transport !== "sse") {
      field("transport", 'must be "stdio", "http" or "sse"');
    }
    if (item.transport === "stdio" && (typeof item.command !== "string" || !item.command)) {
      field("command", "is required for a stdio server");
    }
    if (isRemote(item as Pick<RegistryEntry, "transport">) && !isHttpUrl(item.url)) {
      field(
        "url",
        `must be an http:// or https:// URL for an ${item.transport} server, not ${JSON.stringify(item.url)}`,
      );
    }
    checkHeaders(item, field);
    for (const key of ["args", "tools", "read_only_tools"] as const) {
      if (item[key] !== undefined && !isStringArray(item[key])) field(key, "must be an array of strings");
    }
    checkEnv(item.env, field);
    if (item.cwd !== undefined && typeof item.cwd !== "string") field("cwd", "must be a string");
    if (item.mock !== undefined && typeof item.mock !== "boolean") field("mock", "must be true or false");
    const timeout = item.start_timeout_s;
    if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0)) {
      field("start_timeout_s", "must be a number of seconds above 0");
    }
    checkReset(item, field, baseDir);
    return item as unknown as RegistryEntry;
  });
}

type FieldFail = (key: string, problem: string) => void;

function checkEnv(env: unknown, field: FieldFail): void {
  if (env === undefined || isStringArray(env)) return;
  if (!isObject(env)) {
    field("env", 'must be an array of variable names, or an object like {"NAME": "value"}');
    return;
  }
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) field("env", `has "${name}", which is not a variable name`);
    if (value !== null && typeof value !== "string") field("env", `value of ${name} must be a string or null`);
  }
}

function checkReset(item: Record<string, unknown>, field: FieldFail, baseDir: string | undefined): void {
  const { reset } = item;
  if (reset !== undefined && !(RESET_KINDS as readonly unknown[]).includes(reset)) {
    field("reset", `must be one of ${RESET_KINDS.join(", ")}, not ${JSON.stringify(reset)}`);
  }
  if (reset !== undefined && item.mock === true) field("reset", "does not apply to a mock (mocks reset in-process)");
  if (isRemote(item as Pick<RegistryEntry, "transport">) && (reset === "restart" || reset === "fixture")) {
    field("reset", `cannot be "${reset}" for a remote server (the harness does not run it): use "command" or "none"`);
  }
  if (reset === "fixture") {
    if (typeof item.fixture_dir !== "string" || !item.fixture_dir) {
      field("fixture_dir", 'is required with reset "fixture" (the folder copied fresh for every task)');
    } else if (baseDir !== undefined) {
      const dir = resolve(baseDir, item.fixture_dir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) field("fixture_dir", `${dir} is not a folder`);
    }
  } else if (item.fixture_dir !== undefined) {
    field("fixture_dir", 'goes with reset "fixture" only');
  } else {
    const used = (["args", "env", "cwd"] as const).find((key) =>
      JSON.stringify(item[key] ?? null).includes(FIXTURE_PLACEHOLDER),
    );
    if (used) field(used, `uses ${FIXTURE_PLACEHOLDER}, which only a reset "fixture" server has`);
  }
  if (reset === "command") {
    if (!isStringArray(item.reset_command) || item.reset_command.length === 0) {
      field("reset_command", 'is required with reset "command": an array like ["node", "reset.mjs"]');
    }
  } else if (item.reset_command !== undefined) {
    field("reset_command", 'goes with reset "command" only');
  }
}

/** Remote servers only; every value names at least one environment variable (its value is never stored). */
function checkHeaders(item: Record<string, unknown>, field: FieldFail): void {
  const { headers } = item;
  if (headers === undefined) return;
  if (!isRemote(item as Pick<RegistryEntry, "transport">)) {
    field("headers", "goes with an http or sse server only");
    return;
  }
  if (!isObject(headers)) {
    field("headers", 'must be an object like {"Authorization": "Bearer ${API_TOKEN}"}');
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string" || !new RegExp(HEADER_VARIABLE.source).test(value)) {
      field(
        "headers",
        `value of ${name} must name an environment variable, like "Bearer \${API_TOKEN}" (a registry stores no secret)`,
      );
    }
  }
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((part) => typeof part === "string");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
