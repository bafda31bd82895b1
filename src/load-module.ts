/**
 * Loads a user's extension module (a provider or a metric named in models.yaml) by file path.
 * TypeScript files go through tsx's loader, so `module:./my-provider.ts` works from the built CLI too
 * (plain `node` cannot import .ts on Node 20); JavaScript files are imported as they are.
 */
import { pathToFileURL } from "node:url";
import { InputError } from "./errors.ts";

/** A user's module that could not be imported: the file, and what the import said. */
export class ExtensionModuleError extends InputError {}

export async function importUserModule(file: string, what: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    if (!/\.[cm]?ts$/.test(file)) return (await import(url)) as Record<string, unknown>;
    const { tsImport } = await import("tsx/esm/api");
    return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new ExtensionModuleError(
      "EXTENSION_MODULE_UNLOADABLE",
      `${what}: cannot load ${file}: ${(error as Error).message.split("\n")[0]}`,
      { context: { file }, cause: error },
    );
  }
}
