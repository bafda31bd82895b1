import { buildServers } from "../../scripts/build.ts";

/** The e2e suite spawns real server processes: bundle them first so they are never stale. */
export default async function setup(): Promise<void> {
  await buildServers();
}
