/**
 * The geography database's schema as shown to the agent (query_db's description and its SQL errors): a module
 * of its own, so the server's thread does not load sql.js (the database lives in the SQL worker).
 */
export const DATABASE_SCHEMA =
  "countries(code TEXT PRIMARY KEY -- ISO 3166 alpha-2 e.g. 'FR', name, continent, population INTEGER, area_km2 INTEGER, " +
  "capital, currency -- ISO 4217 e.g. 'EUR'); cities(id INTEGER PRIMARY KEY, name, country_code -- countries.code, " +
  "population INTEGER, is_capital INTEGER 0/1, lat REAL, lon REAL)";
