/**
 * Bundles each mock server's stdio entry (mock-servers/<name>/main.ts) into dist/mock-servers/<name>.mjs,
 * so a server process starts in plain `node` without a TypeScript loader (start-up is what the stdio
 * connect-all target measures). Packages that load their own .wasm files stay external.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;

export async function buildServers(): Promise<string[]> {
  const serversDir = join(root, "mock-servers");
  const entries = readdirSync(serversDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(serversDir, entry.name, "main.ts")))
    .map((entry) => entry.name);
  await build({
    entryPoints: Object.fromEntries(entries.map((name) => [name, join(serversDir, name, "main.ts")])),
    outdir: join(root, "dist", "mock-servers"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["sql.js", "quickjs-emscripten", "@jitl/*"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "warning",
  });
  return entries;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const built = await buildServers();
  process.stderr.write(`built ${built.length} mock servers → dist/mock-servers/\n`);
}
