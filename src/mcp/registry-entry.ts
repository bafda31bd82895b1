/**
 * What starting a registry's server needs of its entry, apart from reading registry files (which finds the
 * repository: the exported agent bundles this module, and runs where there is no repository).
 */
import type { Registry, RegistryEntry, ResetKind } from "./registry.ts";

/** The placeholder in `args`, `env` values and `cwd` that a `fixture` server's fresh copy replaces. */
export const FIXTURE_PLACEHOLDER = "{fixture}";

/**
 * The variables a server takes from the environment: listed by name, or given as null in the object form.
 * Values written in the registry itself are not the environment's (and not secrets of it).
 */
export function passedThroughEnv(server: Pick<RegistryEntry, "env">): string[] {
  if (!server.env) return [];
  if (Array.isArray(server.env)) return server.env;
  return Object.entries(server.env).flatMap(([name, value]) => (value === null ? [name] : []));
}

/** The folder a server's relative paths (cwd, fixture_dir, reset_command's cwd) resolve against. */
export function entryBaseDir(registry: Registry, server: string): string {
  return registry.baseDirs?.[server] ?? registry.baseDir;
}

/** How the server is reset between tasks: `mock` for the project's mocks (their in-process `__reset`). */
export function resetKind(entry: RegistryEntry): ResetKind | "mock" {
  if (entry.mock) return "mock";
  return entry.reset ?? (entry.transport === "http" ? "none" : "restart");
}
