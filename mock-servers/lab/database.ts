/**
 * The bundled SQLite database for query_db: built in memory from fixtures/countries.json and cities.json with
 * sql.js (SQLite compiled to wasm). The wasm file is read from the installed package (no network), which works
 * both from source and from the esbuild bundle because sql.js stays an external dependency.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import initSqlJs, { type Database } from "sql.js";
import cities from "./fixtures/cities.json" with { type: "json" };
import countries from "./fixtures/countries.json" with { type: "json" };

const requireFromHere = createRequire(import.meta.url);
const wasm = readFileSync(requireFromHere.resolve("sql.js/dist/sql-wasm.wasm"));
const SQL = await initSqlJs({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) });

const SQLITE_HEAP_LIMIT_BYTES = 64 * 1024 * 1024;

const DDL = `
CREATE TABLE countries (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  continent TEXT NOT NULL,
  population INTEGER NOT NULL,
  area_km2 INTEGER NOT NULL,
  capital TEXT NOT NULL,
  currency TEXT NOT NULL
);
CREATE TABLE cities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  country_code TEXT NOT NULL REFERENCES countries(code),
  population INTEGER NOT NULL,
  is_capital INTEGER NOT NULL CHECK (is_capital IN (0, 1)),
  lat REAL NOT NULL,
  lon REAL NOT NULL
);
CREATE INDEX cities_country ON cities(country_code);
`;

function insertAll(db: Database, table: string, rows: Record<string, string | number>[]): void {
  const columns = Object.keys(rows[0]!);
  const statement = db.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  try {
    for (const row of rows) statement.run(columns.map((column) => row[column]!));
  } finally {
    statement.free();
  }
}

/** Builds the database from the fixtures (CREATE + INSERT) and returns its SQLite file image. */
export function buildDatabaseImage(): Uint8Array {
  const db = new SQL.Database();
  try {
    db.run(DDL);
    db.run("BEGIN");
    insertAll(db, "countries", countries);
    insertAll(db, "cities", cities);
    db.run("COMMIT");
    return db.export();
  } finally {
    db.close();
  }
}

/**
 * Runs `use` on a throwaway copy of the image opened with `PRAGMA query_only`: a write fails, and even a write
 * that got past every check would vanish with the copy, so the data can never change.
 */
export function withDatabase<T>(image: Uint8Array, use: (db: Database) => T): T {
  const db = new SQL.Database(image);
  try {
    db.run("PRAGMA query_only = ON");
    // sqlite's heap (sorts, temporary b-trees, long strings) stays within what the SQL worker can hold
    db.run(`PRAGMA hard_heap_limit = ${SQLITE_HEAP_LIMIT_BYTES}`);
    return use(db);
  } finally {
    db.close();
  }
}
