/**
 * The `script` format's agent.mjs: src/export/script-main.ts bundled by esbuild with everything it imports
 * (the agent, the providers with the ollama client, the MCP SDK, ajv, yaml, the serve routes), so that
 * plain `node agent.mjs` runs in a folder with no checkout and no node_modules. esbuild runs at export
 * time, which makes it a runtime dependency of `pnpm export`.
 */
import { join } from "node:path";
import { build } from "esbuild";
import { REPO_ROOT } from "../paths.ts";

export const SCRIPT_ENTRY = join(REPO_ROOT, "src", "export", "script-main.ts");

export async function bundleAgentScript(outfile: string): Promise<void> {
  await build({
    entryPoints: [SCRIPT_ENTRY],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // CommonJS packages inside an ESM bundle call require(): give them Node's
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    legalComments: "none",
    logLevel: "error",
  });
}
