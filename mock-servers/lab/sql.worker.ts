/** The SQL worker (kit/bounded.ts): builds the database image once, then answers query_db jobs. */
import { serveJobs } from "../kit/bounded.ts";
import { buildDatabaseImage } from "./database.ts";
import { runQuery } from "./sql-query.ts";

const image = buildDatabaseImage();

serveJobs((job: { sql: string; maxRows: number }) => runQuery(image, job.sql, job.maxRows));
