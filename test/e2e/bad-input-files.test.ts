/**
 * Corrupt and mismatched input files through the CLI (run in process: the same program bin.ts runs, the
 * same exit codes): every case exits 2 with one line on stderr naming the file (and line) and what was
 * expected — run.json, summary.json, records.jsonl.gz, traces.jsonl.gz, outcomes.json, a baseline, a cassette,
 * models.yaml, registry.json and dataset lines, through bench, report, gate, results and dataset.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directItem } from "../../src/bench/dataset/testing/item.ts";
import { RUN_FILES } from "../../src/bench/run/store.ts";
import { runInProcess } from "../support/cli-in-process.ts";
import { useTempResults } from "../support/temp-results.ts";

// the results folder of this test (read when a run is written, not at import)
const { root, results } = useTempResults("onsetlab-bad-files-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  writeFileSync(join(root, name), text);
  return join(root, name);
};
const item = (changes: Record<string, unknown> = {}) => JSON.stringify(directItem("x-1", changes));

let good: string;

/** A copy of a run (default: the good one) under `id` (its files say so), then damaged. */
function variant(id: string, damage: (dir: string) => void, from = good): string {
  const dir = join(results, id);
  cpSync(join(results, from), dir, { recursive: true });
  for (const name of [RUN_FILES.run, RUN_FILES.summary, "outcomes.json"]) {
    const path = join(dir, name);
    if (existsSync(path)) writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), runId: id }));
  }
  damage(dir);
  return id;
}
/** `report` of a damaged copy of a run, written into the test's folder (were it to pass). */
const report = (...damaged: Parameters<typeof variant>) => [
  "report",
  "--out",
  join(root, "report"),
  variant(...damaged),
];
/** Rewrites a run file's text; a .gz file is unpacked and packed again (as one gzip member). */
const rewrite = (dir: string, name: string, change: (text: string) => string) => {
  const bytes = readFileSync(join(dir, name));
  const packed = name.endsWith(".gz");
  const text = change((packed ? gunzipSync(bytes) : bytes).toString("utf8"));
  writeFileSync(join(dir, name), packed ? gzipSync(text) : text);
};
const lineTwoDamaged = (text: string) =>
  text
    .split("\n")
    .map((line, index) => (index === 1 ? "{damaged" : line))
    .join("\n");

beforeAll(async () => {
  const made = await runInProcess([
    "bench",
    "--model",
    "sim:oracle",
    "--config",
    "onsetlab,native",
    "--limit",
    "3",
    "--json",
  ]);
  expect(made.code, made.stderr).toBe(0);
  good = (JSON.parse(made.stdout) as { runId: string }).runId;
  expect(
    (await runInProcess(["gate", "--baseline", join(root, "baseline.json"), "--run", good, "--update"])).code,
  ).toBe(0);
  // a run kept as run.json + summary.json + outcomes.json, as the committed calibration runs are
  variant("kept", () => {});
  expect((await runInProcess(["report", "kept", "--write-outcomes", "--out", join(root, "report-kept")])).code).toBe(0);
  rmSync(join(results, "kept", RUN_FILES.records));
  rmSync(join(results, "kept", RUN_FILES.traces));
}, 60_000);

interface Case {
  args: () => string[];
  line: RegExp;
  /** Part of the report dataset check prints on stdout (which is otherwise empty). */
  stdout?: string;
}

/** A bench of one item on one configuration (what each bench case would run, were its input accepted). */
const bench = ["bench", "--model", "sim:oracle", "--config", "onsetlab", "--limit", "1"];

const cases: Record<string, Case> = {
  "report: run.json not JSON": {
    args: () => report("run-syntax", (dir) => writeFileSync(join(dir, RUN_FILES.run), '{"runId": ')),
    line: /run-syntax\/run\.json: run\.json is not valid JSON \(/,
  },
  "report: run.json without its request": {
    args: () =>
      report("run-schema", (dir) =>
        rewrite(dir, RUN_FILES.run, (text) => JSON.stringify({ ...JSON.parse(text), request: undefined })),
      ),
    line: /run-schema\/run\.json: not a run\.json of this harness: request: .*expected object/,
  },
  "gate: run.json without its request": {
    args: () => ["gate", "--baseline", join(root, "baseline.json"), "--run", "run-schema"],
    line: /run-schema\/run\.json: not a run\.json of this harness: request: /,
  },
  "report: summary.json not JSON": {
    args: () => report("summary-syntax", (dir) => writeFileSync(join(dir, RUN_FILES.summary), "{bad")),
    line: /summary-syntax\/summary\.json: summary\.json is not valid JSON \(/,
  },
  "report: summary.json without rows": {
    args: () =>
      report("summary-schema", (dir) =>
        rewrite(dir, RUN_FILES.summary, (text) => JSON.stringify({ ...JSON.parse(text), rows: 3 })),
      ),
    line: /summary-schema\/summary\.json: not a summary\.json of this harness: rows: .*expected array/,
  },
  "report: records.jsonl.gz damaged mid-file": {
    args: () => report("records-corrupt", (dir) => rewrite(dir, RUN_FILES.records, lineTwoDamaged)),
    line: /records-corrupt\/records\.jsonl\.gz:2: not valid JSON$/,
  },
  "gate: records.jsonl.gz damaged mid-file": {
    args: () => ["gate", "--baseline", join(root, "baseline.json"), "--run", "records-corrupt"],
    line: /records-corrupt\/records\.jsonl\.gz:2: not valid JSON$/,
  },
  "report: records.jsonl.gz with a damaged gzip member before its end": {
    args: () =>
      report("records-member", (dir) => {
        const bytes = readFileSync(join(dir, RUN_FILES.records));
        bytes[bytes.length - 6] = bytes[bytes.length - 6]! ^ 0xff;
        writeFileSync(join(dir, RUN_FILES.records), Buffer.concat([bytes, gzipSync("{}\n")]));
      }),
    line: /records-member\/records\.jsonl\.gz: byte \d+: a gzip member whose checksum does not match its data$/,
  },
  "report: records.jsonl.gz empty": {
    args: () => report("records-empty", (dir) => writeFileSync(join(dir, RUN_FILES.records), "")),
    line: /records-empty\/summary\.json: counts 6 records, .*records-empty\/records\.jsonl\.gz has 0: the summary is not of these records; `pnpm bench --resume records-empty` rewrites/,
  },
  "report: a record fewer than summary.json counts": {
    args: () =>
      report("records-fewer", (dir) => rewrite(dir, RUN_FILES.records, (text) => text.slice(text.indexOf("\n") + 1))),
    line: /records-fewer\/summary\.json: counts 6 records, .*records\.jsonl\.gz has 5/,
  },
  "gate: a record fewer than summary.json counts": {
    args: () => ["gate", "--baseline", join(root, "baseline.json"), "--run", "records-fewer"],
    line: /records-fewer\/summary\.json: counts 6 records/,
  },
  "report: outcomes.json (a kept run) not JSON": {
    args: () => report("outcomes-syntax", (dir) => writeFileSync(join(dir, "outcomes.json"), "{"), "kept"),
    line: /outcomes-syntax\/outcomes\.json: not valid JSON \(/,
  },
  "gate: baseline not JSON": {
    args: () => ["gate", "--baseline", file("baseline-syntax.json", "{"), "--run", "kept"],
    line: /baseline-syntax\.json: not valid JSON \(/,
  },
  "gate: baseline of another format": {
    args: () => ["gate", "--baseline", file("baseline-schema.json", '{"format":"x"}'), "--run", "kept"],
    line: /baseline-schema\.json: \/ must have required property 'runIds'/,
  },
  "results merge: records.jsonl.gz damaged mid-file": {
    args: () => ["results", "merge", good, "records-corrupt", "--out", "merged-1"],
    line: /records-corrupt\/records\.jsonl\.gz:2: not valid JSON$/,
  },
  "results merge: traces.jsonl.gz damaged mid-file": {
    args: () => [
      "results",
      "merge",
      good,
      variant("traces-corrupt", (dir) => rewrite(dir, RUN_FILES.traces, lineTwoDamaged)),
      "--out",
      "merged-2",
    ],
    line: /traces-corrupt\/traces\.jsonl\.gz:2: not valid JSON$/,
  },
  "results merge: run.json without its request": {
    args: () => ["results", "merge", good, "run-schema", "--out", "merged-3"],
    line: /run-schema\/run\.json: not a run\.json of this harness: request: /,
  },
  "bench --resume: records.jsonl.gz damaged mid-file": {
    args: () => ["bench", "--resume", "records-corrupt"],
    line: /records-corrupt\/records\.jsonl\.gz:2: not valid JSON$/,
  },
  "bench --resume: run.json without its request": {
    args: () => ["bench", "--resume", "run-schema"],
    line: /run-schema\/run\.json: not a run\.json of this harness: request: /,
  },
  "bench --replay: a cassette line not JSON": {
    args: () => [...bench, "--replay", file("bad.cassette.jsonl", 'not json\n{"v":1}\n')],
    line: /bad\.cassette\.jsonl:1: not a cassette record: not JSON/,
  },
  "bench --record onto a cassette that holds calls": {
    args: () => [...bench, "--record", file("old.cassette.jsonl", "{}\n{}\n")],
    line: /--record .*old\.cassette\.jsonl: the cassette already holds 2 recorded calls; add --append to record onto it, or give a new file$/,
  },
  "bench --append without --record": {
    args: () => [...bench, "--append"],
    line: /--append goes with --record FILE$/,
  },
  "bench --models: not YAML": {
    args: () => [...bench, "--models", file("bad-models.yaml", "models: [\n")],
    line: /bad-models\.yaml:2:1: not valid YAML: /,
  },
  "bench --models: configurations not a map": {
    args: () => [...bench, "--models", file("bad-models-2.yaml", "configurations: 3\n")],
    line: /bad-models-2\.yaml: configurations: .*expected record/,
  },
  "mock list --registry: not JSON": {
    args: () => ["mock", "list", "--transport", "memory", "--registry", file("bad-registry.json", "{")],
    line: /bad-registry\.json: not valid JSON \(/,
  },
  "mock list --registry: a bad server name": {
    args: () => [
      "mock",
      "list",
      "--transport",
      "memory",
      "--registry",
      file("bad-registry-2.json", '{"servers":[{"name":"X"}]}'),
    ],
    line: /bad-registry-2\.json: servers\[0\] \(X\): field "name" must be a lowercase name like github$/,
  },
  "bench --dataset: a line not JSON": {
    args: () => [...bench, "--dataset", file("syntax.jsonl", `${item()}\nnot json\n`)],
    line: /syntax\.jsonl:2: not valid JSON \(/,
  },
  "bench --dataset: a line against the schema": {
    args: () => [...bench, "--dataset", file("schema.jsonl", `${item({ route: "sideways" })}\n`)],
    line: /schema\.jsonl:1 \(x-1\): route: must be one of direct, rewoo, react, not "sideways"$/,
  },
  "bench --dataset: a byte-order mark inside the file": {
    args: () => [...bench, "--dataset", file("bom.jsonl", `${item()}\n\uFEFF${item({ id: "x-2" })}\n`)],
    line: /bom\.jsonl:2: not valid JSON \(Unexpected token '\\uFEFF', "\\uFEFF\{"id":"x-/,
  },
  "bench --dataset: an empty file": {
    args: () => [...bench, "--dataset", file("empty.jsonl", "")],
    line: /empty\.jsonl: the file is empty: a dataset file holds one JSON item per line$/,
  },
  "bench --dataset: a gold call to a tool no server has": {
    args: () => [
      ...bench,
      "--dataset",
      file(
        "unknown-tool.jsonl",
        `${item({ category: "single", servers: ["github"], route: "rewoo", calls: [{ tool: "create_issue", args: {} }] })}\n`,
      ),
    ],
    line: /unknown-tool\.jsonl:1 \(x-1\): calls\[0\] create_issue: unknown tool \(no server in .*registry\.json lists it\)$/,
  },
  "dataset check: a gold call to a tool no server has": {
    args: () => ["dataset", "check", "--dataset", join(root, "unknown-tool.jsonl")],
    line: /^error: dataset check failed: 2 problems/,
    stdout: "unknown-tool.jsonl:1 (x-1): calls[0] create_issue: unknown tool (no connected server lists it)",
  },
  "dataset check: a byte-order mark inside the file": {
    args: () => ["dataset", "check", "--dataset", join(root, "bom.jsonl")],
    line: /^error: dataset check failed: 1 problems/,
    stdout: `bom.jsonl:2: not valid JSON (Unexpected token '\\uFEFF', "\\uFEFF{"id":"x-`,
  },
};

describe("corrupt and mismatched input files", () => {
  it("reads the good run, and the kept run (run.json, summary.json, outcomes.json) the cases are made from", async () => {
    for (const run of [good, "kept"]) {
      const outcome = await runInProcess(["report", run, "--json", "--out", join(root, `report-${run}`)]);
      expect([run, outcome.code, outcome.stderr]).toEqual([run, 0, ""]);
      const gate = await runInProcess(["gate", "--baseline", join(root, "baseline.json"), "--run", run]);
      expect([run, gate.code]).toEqual([run, 0]);
    }
  });

  it.each(Object.entries(cases))("%s: exit 2, one line naming the file", async (_name, { args, line, stdout }) => {
    const argv = args();
    const outcome = await runInProcess(argv);
    const context = `${argv.join(" ")}\nstdout: ${outcome.stdout.slice(0, 300)}\nstderr: ${outcome.stderr}`;
    expect(outcome.code, context).toBe(2);
    // progress lines aside (the gold replay of dataset check)
    const lines = outcome.stderr
      .trimEnd()
      .split("\n")
      .filter((text) => !/^gold replay \d/.test(text));
    expect(lines, context).toHaveLength(1);
    expect(lines[0], context).toMatch(/^error: /);
    expect(lines[0], context).toMatch(line);
    // an invisible character is never printed as itself
    expect(outcome.stderr, context).not.toMatch(/[\uFEFF\u200B]/u);
    if (stdout) expect(outcome.stdout, context).toContain(stdout);
    else expect(outcome.stdout, context).toBe("");
  });

  it("left no half-made run: no merged run, no staging folder", () => {
    const folders = readdirSync(results);
    expect(folders.filter((name) => name.startsWith("merged-") || name.startsWith("."))).toEqual([]);
  });

  it("lists a run whose run.json is malformed as unreadable, and the others (exit 0)", async () => {
    const listed = await runInProcess(["results", "list", "--json"]);
    expect(listed.code).toBe(0);
    const runs = JSON.parse(listed.stdout) as { id: string; problem?: string }[];
    expect(runs.find((run) => run.id === "run-schema")?.problem).toMatch(/not a run\.json of this harness: request: /);
    expect(runs.find((run) => run.id === good)?.problem).toBeUndefined();
  });
});
