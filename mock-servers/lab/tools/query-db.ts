import type { SqlValue } from "sql.js";
import { ToolError, type ToolSpec } from "../../kit/index.ts";
import { DATABASE_SCHEMA, withDatabase } from "../database.ts";
import { assertSingleSelect } from "../sql-guard.ts";
import type { LabState } from "../state.ts";

const DEFAULT_MAX_ROWS = 100;

/** Unique keys for row objects: a repeated column name gets a suffix (name, name_2 …). */
function uniqueColumnNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}

/** JSON-safe cell: blobs become hex (the fixture tables hold none, but an expression can produce one). */
function cell(value: SqlValue): string | number | null {
  return value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value;
}

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
  handler: (args, { state }) => {
    const sql = String(args.sql);
    assertSingleSelect(sql);
    const maxRows = Number(args.max_rows ?? DEFAULT_MAX_ROWS);
    return withDatabase(state.dbImage, (db) => {
      let statement: ReturnType<typeof db.prepare> | undefined;
      try {
        statement = db.prepare(sql);
        const columns = uniqueColumnNames(statement.getColumnNames());
        const rows: Record<string, string | number | null>[] = [];
        let truncated = false;
        while (statement.step()) {
          if (rows.length === maxRows) {
            truncated = true;
            break;
          }
          const values = statement.get();
          rows.push(Object.fromEntries(columns.map((column, index) => [column, cell(values[index] ?? null)])));
        }
        return { columns, rows, row_count: rows.length, truncated };
      } catch (error) {
        throw new ToolError("sql_error", `${(error as Error).message} — tables: ${DATABASE_SCHEMA}`);
      } finally {
        statement?.free();
      }
    });
  },
};
