import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_ERROR_CODES, ToolError } from "../kit/errors.ts";
import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { buildDatabaseImage, withDatabase } from "./database.ts";
import { type LabState, labServer } from "./server.ts";
import { assertSingleSelect } from "./sql-guard.ts";

let server: TestServer<LabState>;
beforeAll(async () => {
  server = await openTestServer(labServer);
});
afterAll(async () => {
  await server.close();
});

const query = (sql: string, extra: Record<string, unknown> = {}) => server.ok("query_db", { sql, ...extra });

describe("query_db", () => {
  it("answers SELECTs over countries and cities", async () => {
    expect(await query("SELECT COUNT(*) AS countries FROM countries")).toEqual({
      columns: ["countries"],
      rows: [{ countries: 65 }],
      row_count: 1,
      truncated: false,
    });
    expect((await query("SELECT name, capital, currency FROM countries WHERE code = 'AU'")).rows).toEqual([
      { name: "Australia", capital: "Canberra", currency: "AUD" },
    ]);
    const top = await query("SELECT name FROM countries WHERE continent = 'Europe' ORDER BY population DESC LIMIT 3");
    expect(top.rows).toEqual([{ name: "Russia" }, { name: "Germany" }, { name: "France" }]);
  });

  it("joins, aggregates and keeps repeated column names apart", async () => {
    const joined = await query(
      "SELECT c.name, k.name FROM cities c JOIN countries k ON k.code = c.country_code " +
        "WHERE c.is_capital = 1 AND k.continent = 'Oceania' ORDER BY c.name",
    );
    expect(joined.columns).toEqual(["name", "name_2"]);
    expect(joined.rows).toEqual([
      { name: "Canberra", name_2: "Australia" },
      { name: "Port Moresby", name_2: "Papua New Guinea" },
      { name: "Suva", name_2: "Fiji" },
      { name: "Wellington", name_2: "New Zealand" },
    ]);
    const bigger = await query(
      "WITH capitals AS (SELECT country_code, population FROM cities WHERE is_capital = 1) " +
        "SELECT COUNT(*) AS n FROM cities c JOIN capitals k ON k.country_code = c.country_code " +
        "WHERE c.is_capital = 0 AND c.population > k.population",
    );
    expect((bigger.rows as { n: number }[])[0]!.n).toBeGreaterThan(10);
  });

  it("cuts at max_rows and says so", async () => {
    const page = await query("SELECT id FROM cities ORDER BY id", { max_rows: 5 });
    expect(page).toMatchObject({ row_count: 5, truncated: true });
    expect(page.rows).toEqual([1, 2, 3, 4, 5].map((id) => ({ id })));
  });

  it("reports SQL errors with the schema", async () => {
    const outcome = await server.call("query_db", { sql: "SELECT population FROM country" });
    expect(outcome).toMatchObject({ kind: "tool_error" });
    expect(outcome.kind === "tool_error" && outcome.text).toMatch(
      /^sql_error: no such table: country — tables: countries\(code/,
    );
  });

  it.each([
    [
      "INSERT INTO countries VALUES ('XX', 'X', 'Asia', 1, 1, 'X', 'XXX')",
      /^read_only: Only SELECT queries are allowed .*got INSERT/,
    ],
    ["UPDATE countries SET population = 0", /got UPDATE/],
    ["DELETE FROM cities", /got DELETE/],
    ["DROP TABLE cities", /got DROP/],
    ["ATTACH DATABASE '/tmp/x.db' AS x", /got ATTACH/],
    ["PRAGMA query_only = OFF", /got PRAGMA/],
    ["SELECT 1; DROP TABLE cities", /^read_only: Only a single statement is allowed/],
    ["SELECT * FROM countries; SELECT * FROM cities", /single statement/],
    ["WITH gone AS (SELECT 1) DELETE FROM cities", /^read_only: DELETE is not allowed/],
    ["select * from cities where name = 'x' /* ; */ ; update cities set name = 'y'", /single statement/],
    ["", /^invalid_query: The query is empty/],
  ])("refuses %j", async (sql, message) => {
    const outcome = await server.call("query_db", { sql });
    expect(outcome.kind).toBe("tool_error");
    expect(outcome.kind === "tool_error" && outcome.text).toMatch(message);
  });

  it("does not mistake keywords or semicolons inside literals and comments for statements", async () => {
    expect((await query("SELECT 'DROP TABLE x; DELETE' AS text -- trailing; comment\n;")).rows).toEqual([
      { text: "DROP TABLE x; DELETE" },
    ]);
    expect(
      (await query("SELECT replace(name, 'United', 'U.') AS short FROM countries WHERE code = 'US'")).rows,
    ).toEqual([{ short: "U. States" }]);
  });

  it("leaves the data untouched after refused writes", async () => {
    await server.call("query_db", { sql: "SELECT 1; DELETE FROM cities" });
    expect((await query("SELECT COUNT(*) AS n FROM cities")).rows).toEqual([{ n: 170 }]);
  });
});

describe("query_db's budget (a worker thread, stopped at its time limit)", () => {
  it.each([
    [
      "a recursive CTE without end",
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
    ],
    ["a four-way cross join", "SELECT count(*) FROM cities a, cities b, cities c, cities d"],
  ])("stops %s with a time-limit error of its own, and answers the next query", async (_label, sql) => {
    const outcome = await server.call("query_db", { sql });
    expect(outcome).toMatchObject({ kind: "rpc_error", code: TOOL_ERROR_CODES.timeLimit });
    expect(outcome.kind === "rpc_error" && outcome.message).toMatch(/time limit of 2000 ms/);
    expect((await query("SELECT COUNT(*) AS n FROM cities")).rows).toEqual([{ n: 170 }]);
  });

  it("answers a query whose value outgrows sqlite's heap limit with an SQL error", async () => {
    const outcome = await server.call("query_db", { sql: "SELECT length(printf('%.*c', 500000000, 'x'))" });
    expect(outcome).toMatchObject({ kind: "tool_error", text: expect.stringMatching(/^sql_error: .*memory/) });
  });
});

describe("read-only database (second guard)", () => {
  it("refuses writes even when the SQL check is bypassed", () => {
    withDatabase(buildDatabaseImage(), (db) => {
      for (const sql of [
        "DELETE FROM cities",
        "UPDATE countries SET name = 'x'",
        "DROP TABLE cities",
        "CREATE TABLE t (a)",
      ]) {
        expect(() => db.run(sql)).toThrow(/attempt to write a readonly database/);
      }
    });
  });

  it("loses even a write that switched query_only off, because every query runs on a copy", async () => {
    withDatabase(buildDatabaseImage(), (db) => {
      db.run("PRAGMA query_only = OFF; DELETE FROM cities;");
      expect(db.exec("SELECT COUNT(*) FROM cities")[0]!.values).toEqual([[0]]);
    });
    expect((await query("SELECT COUNT(*) AS n FROM cities")).rows).toEqual([{ n: 170 }]);
  });
});

describe("assertSingleSelect", () => {
  it.each(["SELECT 1", "  select name from countries;  ", "WITH x AS (SELECT 1) SELECT * FROM x", "(SELECT 1)"])(
    "accepts %j",
    (sql) => {
      expect(() => assertSingleSelect(sql)).not.toThrow();
    },
  );

  it("throws a ToolError with a code", () => {
    expect(() => assertSingleSelect("VACUUM")).toThrow(ToolError);
    try {
      assertSingleSelect("VACUUM");
    } catch (error) {
      expect((error as ToolError).code).toBe("read_only");
    }
  });
});
