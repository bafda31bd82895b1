/**
 * `pnpm build`: the runnable builds, so that runs start in plain `node` without a TypeScript loader.
 * - dist/mock-servers/<name>.mjs: each mock server's stdio entry (start-up is what the stdio connect-all
 *   target measures), and <name>.worker.mjs: the worker threads of bounded tools, which the servers (stdio or
 *   in the bundled CLI) start. Packages that load their own .wasm files stay external.
 * - dist/cli/: the CLI the heavy commands run (bench, agent, perf, mock). Without tsx's loader and its
 *   source transforms a process holds ~65 MB less, which counts once per worker thread as well.
 * - dist/index.js: the library (package.json `exports`), sharing chunks (dist/chunks/) with the CLI;
 *   its types come from `tsc -p tsconfig.build.json` (dist/types/).
 * - dist/view/: the web viewer (`pnpm view` serves it): index.html, app.js and app.css, every library
 *   bundled in (no CDN: it works offline).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;

export async function buildServers(): Promise<string[]> {
  const serversDir = join(root, "mock-servers");
  const entries = readdirSync(serversDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(serversDir, entry.name, "main.ts")))
    .map((entry) => entry.name);
  // the worker threads of bounded tools (mock-servers/kit/bounded.ts): <server>/<name>.worker.ts → <name>.worker.mjs
  const workers = entries.flatMap((name) =>
    readdirSync(join(serversDir, name))
      .filter((file) => file.endsWith(".worker.ts"))
      .map((file) => [file.slice(0, -".ts".length), join(serversDir, name, file)] as const),
  );
  await build({
    entryPoints: Object.fromEntries([
      ...entries.map((name) => [name, join(serversDir, name, "main.ts")] as const),
      ...workers,
    ]),
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

/**
 * The CLI and the library as ESM chunks (packages stay in node_modules). Modules that start their own process or thread
 * from their own file (the perf child, the bench's worker threads) are entries too, so that their code
 * lives in a chunk of its own rather than in bin.js, which would run the CLI again.
 */
export async function buildCli(): Promise<void> {
  await build({
    entryPoints: {
      "cli/bin": join(root, "src", "cli", "bin.ts"),
      "cli/bench-threads": join(root, "src", "bench", "run", "threads.ts"),
      "cli/perf-harness": join(root, "src", "bench", "perf", "harness.ts"),
      index: join(root, "src", "index.ts"),
    },
    outdir: join(root, "dist"),
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
}

/** The web viewer (src/view/web/) for the browser: one script and one stylesheet beside index.html. */
export async function buildView(out: string = join(root, "dist", "view")): Promise<void> {
  const web = join(root, "src", "view", "web");
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { app: join(web, "main.ts") },
    outdir: out,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: true,
    logLevel: "warning",
  });
  copyFileSync(join(web, "index.html"), join(out, "index.html"));
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "view") {
  // `pnpm build:view`: the viewer alone (what `pnpm view` needs)
  await buildView();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const built = await buildServers();
  await buildCli();
  await buildView();
  process.stderr.write(
    `built ${built.length} mock servers → dist/mock-servers/, the CLI → dist/cli/, the library → dist/index.js, ` +
      "the viewer → dist/view/\n",
  );
}
