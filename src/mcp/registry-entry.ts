/**
 * What starting a registry's server needs of its entry, apart from reading registry files (which finds the
 * repository: the exported agent bundles this module, and runs where there is no repository).
 */
import type { Registry, RegistryEntry, ResetKind } from "./registry.ts";

/** The placeholder in `args`, `env` values and `cwd` that a `fixture` server's fresh copy replaces. */
export const FIXTURE_PLACEHOLDER = "{fixture}";

/** `${NAME}` in a header value: the environment variable whose value is put there when connecting. */
export const HEADER_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The variables a server takes from the environment: listed by name, or given as null in the object form,
 * and those its headers name. Values written in the registry itself are not the environment's (and not
 * secrets of it).
 */
export function passedThroughEnv(server: Pick<RegistryEntry, "env" | "headers">): string[] {
  const headers = Object.values(server.headers ?? {}).flatMap((value) =>
    [...value.matchAll(HEADER_VARIABLE)].map((match) => match[1] as string),
  );
  if (!server.env) return headers;
  if (Array.isArray(server.env)) return [...server.env, ...headers];
  return [...Object.entries(server.env).flatMap(([name, value]) => (value === null ? [name] : [])), ...headers];
}

/** The harness does not run it: reached over HTTP (Streamable HTTP or the legacy SSE transport). */
export function isRemote(entry: Pick<RegistryEntry, "transport">): boolean {
  return entry.transport === "http" || entry.transport === "sse";
}

/** The folder a server's relative paths (cwd, fixture_dir, reset_command's cwd) resolve against. */
export function entryBaseDir(registry: Registry, server: string): string {
  return registry.baseDirs?.[server] ?? registry.baseDir;
}

/** How the server is reset between tasks: `mock` for the project's mocks (their in-process `__reset`). */
export function resetKind(entry: RegistryEntry): ResetKind | "mock" {
  if (entry.mock) return "mock";
  return entry.reset ?? (isRemote(entry) ? "none" : "restart");
}
