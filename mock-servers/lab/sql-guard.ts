/**
 * Read-only gate for query_db: accepts exactly one SELECT (optionally WITH … SELECT) statement. Comments, string
 * literals and quoted identifiers are blanked first, so keywords or semicolons inside them do not count.
 * This is the first of two guards: the database itself is also opened with `PRAGMA query_only`.
 */
import { ToolError } from "../kit/errors.ts";

const WRITE_KEYWORDS = [
  "INSERT",
  "UPDATE",
  "DELETE",
  "DROP",
  "CREATE",
  "ALTER",
  "ATTACH",
  "DETACH",
  "PRAGMA",
  "VACUUM",
  "REINDEX",
  "ANALYZE",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
  "SAVEPOINT",
  "RELEASE",
];

/** Replaces comments, 'strings', "identifiers", `identifiers` and [identifiers] with spaces of equal length. */
export function blankLiterals(sql: string): string {
  return sql.replace(
    /--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`(?:[^`]|``)*`?|\[[^\]]*\]?/g,
    (match) => " ".repeat(match.length),
  );
}

/** Throws a `read_only` ToolError unless `sql` is a single SELECT statement. */
export function assertSingleSelect(sql: string): void {
  const code = blankLiterals(sql).trim().replace(/;\s*$/, "");
  if (code === "") throw new ToolError("invalid_query", "The query is empty; write one SELECT statement");
  if (code.includes(";")) {
    throw new ToolError("read_only", "Only a single statement is allowed; remove everything after the first ';'");
  }
  const firstKeyword = /^\(*\s*([A-Za-z]+)/.exec(code)?.[1]?.toUpperCase() ?? "";
  if (firstKeyword !== "SELECT" && firstKeyword !== "WITH") {
    throw new ToolError(
      "read_only",
      `Only SELECT queries are allowed (the database is read-only); got ${firstKeyword || "no statement keyword"}`,
    );
  }
  const words = new Set(code.toUpperCase().match(/[A-Z_]+/g) ?? []);
  const forbidden = WRITE_KEYWORDS.find((keyword) => words.has(keyword));
  if (forbidden) {
    throw new ToolError("read_only", `${forbidden} is not allowed: query_db only runs read-only SELECT queries`);
  }
}
