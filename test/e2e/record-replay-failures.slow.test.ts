/**
 * Record → replay of a run whose model server fails (the cassette's failure lines). A fault proxy in front
 * of the stand-in (real mode, oracle answers) fails one item's every generation with a 500 (its record goes
 * invalid, `server_error`) and another's first one with a 503 (the provider retries it and gets the answer).
 * Replaying the cassette, with no server at all, gives every record as recorded. A resume against the healthy
 * server appends the failed item's answers as session 1; one replay then gives the run's final records. A run
 * that a 400 stops (the request refused: an outage) replays to the same stop, naming the same failure; after
 * its resume, one replay runs past the stop to the final records.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = tempResultsDir("onsetlab-replay-failures-");

import { selectItems } from "../../src/bench/dataset/select.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import type { BenchRequest } from "../../src/bench/run/run-file-types.ts";
import { loadCassette } from "../../src/models/cassette.ts";
import { benchRequest, recordContents } from "../support/bench-run.ts";
import { type Fault, oracleBehindProxy } from "../support/fault-proxy.ts";
import { tempResultsDir } from "../support/results-dir.ts";

const modelsFile = join(root, "models.yaml");
const request = benchRequest({
  models: ["qwen2.5:3b"],
  configs: ["rewoo"],
  matrix: undefined,
  filter: { category: ["single"] },
  first: 3,
});
const items = selectItems([], request.filter, request).items;
/** The query as it appears in a request body (JSON-escaped). */
const inBody = (index: number) => JSON.stringify(items[index]!.query).slice(1, -1);

/** What the proxy does to one request: set by each test. */
let pick: (path: string, body: string) => Fault | undefined = () => undefined;
let servers: Awaited<ReturnType<typeof oracleBehindProxy>>;
const savedHost = process.env.OLLAMA_HOST;

beforeAll(async () => {
  servers = await oracleBehindProxy((path, body) => pick(path, body));
  writeFileSync(
    modelsFile,
    `models:
  qwen2.5:3b: { provider: ollama, retry_ms: [5, 10] }
configurations:
  rewoo: { strategy: rewoo, rescue: false, fallback: false }
`,
  );
});

afterAll(async () => {
  await servers.close();
  if (savedHost === undefined) delete process.env.OLLAMA_HOST;
  else process.env.OLLAMA_HOST = savedHost;
  rmSync(root, { recursive: true, force: true });
});

/** A run against `host` (a replay reaches no server: a closed port shows it). */
function run(host: string, changes: Partial<BenchRequest>, resume?: string) {
  process.env.OLLAMA_HOST = host;
  return runBench({
    request: { ...request, ...changes },
    modelsFile,
    resultsRoot: root,
    ...(resume ? { resume } : {}),
  });
}

const NO_SERVER = "http://127.0.0.1:9";

describe("a recorded run with failed model calls replays to the same records", () => {
  it("a server failure stays invalid, a retried one stays answered; after a resume, one replay gives the final records", async () => {
    const cassette = join(root, "failures.jsonl");
    let busy = 0;
    pick = (path, body) => {
      if (path !== "/api/generate") return undefined;
      if (body.includes(inBody(0))) return { status: 500, body: '{"error":"llama runner process has terminated"}' };
      if (body.includes(inBody(1)) && busy++ === 0) return { status: 503, body: '{"error":"server busy"}' };
      return undefined;
    };
    const recorded = await run(servers.proxy.url, { record: cassette });
    expect(busy).toBeGreaterThan(1); // the 503 was retried
    const invalid = recordContents(recorded.dir).filter((record) =>
      JSON.stringify(record.content).includes("server_error"),
    );
    expect(invalid.map((record) => record.key)).toEqual([`qwen2.5:3b|rewoo|${items[0]!.id}|0`]);
    // the failed item's calls (the tool selector's and the planner's), each a line of its own
    const failures = loadCassette(cassette).filter((line) => line.error);
    expect(failures.length).toBeGreaterThan(0);
    for (const line of failures) {
      expect(line).toMatchObject({
        v: 2,
        session: 0,
        error: { name: "ProviderHttpError", status: 500, transient: false, invalid: "server_error" },
      });
      expect(line.request.prompt).toContain(items[0]!.query);
    }

    const replayed = await run(NO_SERVER, { replay: cassette });
    expect(recordContents(replayed.dir)).toEqual(recordContents(recorded.dir));
    expect(replayed.summary.rows[0]!.invalid.server_error).toBe(1);

    // the healthy server answers the failed item's requests: they join the cassette as session 1
    pick = () => undefined;
    const resumed = await run(servers.standin.url, {}, recorded.runId);
    expect(resumed.retried).toBe(1);
    expect(resumed.summary.rows[0]!.invalid.server_error).toBe(0);
    expect(new Set(loadCassette(cassette).map((line) => line.session))).toEqual(new Set([0, 1]));
    const final = await run(NO_SERVER, { replay: cassette });
    expect(recordContents(final.dir)).toEqual(recordContents(recorded.dir));
  });

  it("a run a refused request stopped replays to the same stop, with the same message and records; after its resume, one replay gives the final records", async () => {
    const cassette = join(root, "outage.jsonl");
    pick = (path, body) =>
      path === "/api/generate" && body.includes(inBody(2))
        ? { status: 400, body: '{"error":"invalid options: num_ctx"}' }
        : undefined;
    const stopped = async (host: string, changes: Partial<BenchRequest>) => {
      const error = (await run(host, changes).catch((caught: unknown) => caught)) as Error;
      expect(error.name).toBe("ModelOutageError");
      const runId = /--resume (\S+)/.exec(error.message)![1]!;
      return { runId, message: error.message.replace(runId, "RUN"), records: recordContents(join(root, runId)) };
    };
    const { runId, ...recorded } = await stopped(servers.proxy.url, { record: cassette });
    expect(recorded.message).toMatch(/answered 400.*invalid options: num_ctx/);
    expect(recorded.records).toHaveLength(2);
    expect(loadCassette(cassette).at(-1)!.error).toMatchObject({ name: "ProviderHttpError", status: 400 });
    const { runId: _, ...replayed } = await stopped(NO_SERVER, { replay: cassette });
    expect(replayed).toEqual(recorded);

    // a resume against the healthy server answers the refused request (session 1): one replay then runs
    // past the stop, to the resumed run's records
    pick = () => undefined;
    const resumed = await run(servers.standin.url, {}, runId);
    expect(recordContents(resumed.dir)).toHaveLength(3);
    const final = await run(NO_SERVER, { replay: cassette });
    expect(recordContents(final.dir)).toEqual(recordContents(resumed.dir));
  });
});
