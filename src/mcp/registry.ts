import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";
import { RegistryError } from "./errors.ts";

/** One server in a registry file (DESIGN §5). Mock servers and a user's real servers look the same. */
export interface RegistryEntry {
  name: string;
  purpose: string;
  transport: "stdio" | "http";
  /** stdio: the program and its arguments; `node` means the running Node binary. */
  command?: string;
  args?: string[];
  /** stdio: names of environment variables passed through to the server (values are never stored). */
  env?: string[];
  /** stdio: working directory, relative to the registry file (default: the registry's folder). */
  cwd?: string;
  /** http: the Streamable HTTP endpoint. */
  url?: string;
  /** The tool names the server is expected to list (checked by tests, informative for users). */
  tools?: string[];
  /** A mock of this project: has the hidden __reset/__state/__check/__faults tools and can run in-process. */
  mock?: boolean;
}

export interface Registry {
  file: string;
  /** Absolute folder that relative `cwd`s resolve against. */
  baseDir: string;
  servers: RegistryEntry[];
}

export const DEFAULT_REGISTRY = join(REPO_ROOT, "mock-servers", "registry.json");

const NAME = /^[a-z][a-z0-9_-]*$/;

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
  return { file, baseDir: dirname(resolve(file)), servers: parseRegistry(raw, file) };
}

/** Validates a parsed registry; every problem names the entry and the field. */
export function parseRegistry(raw: unknown, file: string): RegistryEntry[] {
  const fail = (where: string, problem: string): never => {
    throw new RegistryError("REGISTRY_INVALID", `${file}: ${where}: ${problem}`, { context: { file, where } });
  };
  if (!isObject(raw) || !Array.isArray(raw.servers)) fail("top level", 'expected {"servers": [ … ]}');
  const servers = (raw as { servers: unknown[] }).servers;
  const seen = new Set<string>();
  return servers.map((item, index) => {
    const where = `servers[${index}]${isObject(item) && typeof item.name === "string" ? ` (${item.name})` : ""}`;
    if (!isObject(item)) return fail(where, "expected an object");
    const field = (key: string, problem: string) => fail(where, `field "${key}" ${problem}`);
    if (typeof item.name !== "string" || !NAME.test(item.name)) field("name", "must be a lowercase name like github");
    if (seen.has(item.name as string)) field("name", "is used by an earlier entry");
    seen.add(item.name as string);
    if (typeof item.purpose !== "string" || !item.purpose) field("purpose", "must be a non-empty string");
    if (item.transport !== "stdio" && item.transport !== "http") field("transport", 'must be "stdio" or "http"');
    if (item.transport === "stdio" && (typeof item.command !== "string" || !item.command)) {
      field("command", "is required for a stdio server");
    }
    if (item.transport === "http" && (typeof item.url !== "string" || !URL.canParse(item.url))) {
      field("url", "must be an absolute URL for an http server");
    }
    for (const key of ["args", "env", "tools"] as const) {
      const value = item[key];
      if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === "string"))) {
        field(key, "must be an array of strings");
      }
    }
    if (item.cwd !== undefined && typeof item.cwd !== "string") field("cwd", "must be a string");
    if (item.mock !== undefined && typeof item.mock !== "boolean") field("mock", "must be true or false");
    return item as unknown as RegistryEntry;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
