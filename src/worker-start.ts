/**
 * Starts a worker thread on a module of this project, from the sources or from a bundled build. From sources
 * (tsx, vitest), Node 20 does not apply the parent's TypeScript loader to a worker's entry, so the worker
 * registers tsx first; a bundled build's .js/.mjs entry runs directly.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

export function startModuleWorker(module: URL, options: WorkerOptions = {}): Worker {
  if (!module.pathname.endsWith(".ts")) return new Worker(module, options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
