/**
 * query_db's queries run in a worker thread (kit/bounded.ts): a query that runs past the time limit (a
 * recursive CTE without end, a cross join of the cities) is stopped with its worker, whatever the transport.
 * The database is small: every sensible query answers in milliseconds.
 */
import { BoundedWorkers } from "../kit/bounded.ts";
import type { QueryResult } from "./sql-query.ts";

export const QUERY_TIME_LIMIT_MS = 2000;

const workers = new BoundedWorkers({
  module: "lab/sql.worker",
  // sqlite's own heap is capped inside the worker (database.ts); this caps the rows turned into JS values
  resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  maxWorkers: 4,
});

export function runQueryBounded(sql: string, maxRows: number): Promise<QueryResult> {
  return workers.run<QueryResult>({ sql, maxRows }, QUERY_TIME_LIMIT_MS);
}
