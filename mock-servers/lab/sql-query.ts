/** One query_db query on a throwaway copy of the database: what the SQL worker runs (sql.worker.ts). */
import type { SqlValue } from "sql.js";
import { ToolError } from "../kit/errors.ts";
import { withDatabase } from "./database.ts";
import { DATABASE_SCHEMA } from "./schema.ts";

export interface QueryResult {
  columns: string[];
  rows: Record<string, string | number | null>[];
  row_count: number;
  truncated: boolean;
}

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

/** Steps at most `maxRows` + 1 rows; an SQL error is the query's fault (a ToolError naming the tables). */
export function runQuery(image: Uint8Array, sql: string, maxRows: number): QueryResult {
  return withDatabase(image, (db) => {
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
}
