import type { ToolSpec } from "../../kit/types.ts";
import { DATABASE_SCHEMA } from "../schema.ts";
import { assertSingleSelect } from "../sql-guard.ts";
import { runQueryBounded } from "../sql-workers.ts";
import type { LabState } from "../state.ts";

const DEFAULT_MAX_ROWS = 100;

export const queryDbTool: ToolSpec<LabState> = {
  name: "query_db",
  description: `Run one read-only SQL SELECT (SQLite dialect) on the geography database. Tables: ${DATABASE_SCHEMA}.`,
  inputSchema: {
    type: "object",
    properties: {
      sql: {
        type: "string",
        description:
          "A single SELECT statement, e.g. \"SELECT name, population FROM countries WHERE continent = 'Europe' ORDER BY population DESC LIMIT 5\".",
      },
      max_rows: {
        type: "integer",
        minimum: 1,
        maximum: 1000,
        default: DEFAULT_MAX_ROWS,
        description: `Return at most this many rows (default ${DEFAULT_MAX_ROWS}).`,
      },
    },
    required: ["sql"],
  },
  outputSchema: {
    type: "object",
    properties: {
      columns: { type: "array", items: { type: "string" } },
      rows: {
        type: "array",
        items: { type: "object", additionalProperties: { type: ["string", "number", "null"] } },
        description: "One object per row, keyed by column.",
      },
      row_count: { type: "integer", description: "Rows returned." },
      truncated: { type: "boolean", description: "True when more rows matched than max_rows." },
    },
    required: ["columns", "rows", "row_count", "truncated"],
    additionalProperties: false,
  },
  annotations: {
    title: "Query database (read-only SQL)",
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (args) => {
    const sql = String(args.sql);
    assertSingleSelect(sql);
    return runQueryBounded(sql, Number(args.max_rows ?? DEFAULT_MAX_ROWS));
  },
};
