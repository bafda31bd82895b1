/** The stand-in's own endpoints (not Ollama's): its statistics, and their reset. */

import type { StandinContext } from "./generate.ts";
import { type Exchange, type RouteTable, sendJson } from "./http-io.ts";

export const statsRoutes: RouteTable<StandinContext> = {
  "/__standin/stats": { GET: stats },
  "/__standin/stats/reset": { POST: reset },
};

async function stats(context: StandinContext, { response }: Exchange): Promise<void> {
  sendJson(response, 200, context.stats.report());
}

async function reset(context: StandinContext, { response }: Exchange): Promise<void> {
  context.stats.reset();
  sendJson(response, 200, context.stats.report());
}
